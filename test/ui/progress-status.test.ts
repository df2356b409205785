// An MCP tool's progress notification as the running tool's one line, fed through the
// transcript model as the loop's tool_progress event.
import { describe, expect, it } from "vitest";
import { progressStatus, TranscriptModel } from "../../src/ui/transcript/transcript-model.js";

describe("progressStatus", () => {
  it("reads the message with how far the tool is", () => {
    expect(progressStatus({ progress: 3, total: 10, message: "Indexing" })).toBe("Indexing (3/10)");
    expect(progressStatus({ progress: 40, total: 100 })).toBe("40%");
    expect(progressStatus({ progress: 7 })).toBe("7");
    expect(progressStatus({ output: "bash lines" })).toBeUndefined();
  });

  it("becomes the running tool's status line", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const use = { type: "tool_use" as const, id: "t1", name: "mcp__s__t", input: {} };
    model.apply({
      type: "assistant",
      message: { role: "assistant", content: [use] },
    } as Parameters<TranscriptModel["apply"]>[0]);
    model.apply({
      type: "tool_progress",
      toolUseId: "t1",
      progress: { progress: 1, total: 3, message: "Step one" },
    } as Parameters<TranscriptModel["apply"]>[0]);
    expect(model.running.get("t1")?.status).toBe("Step one (1/3)");
  });
});
