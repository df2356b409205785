// A file read again after its earlier Read result left the conversation (microcompact replaced it
// by a stub, or a compaction by the summary) must come back whole: "unchanged since last read"
// would point the model at text it no longer has. After a compaction an edit of a file whose text
// was not put back asks for a read first, as for any file the model has not seen. The real loop,
// the real Read and Edit tools, a replayed model.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/providers/types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { collect, sessionFor, tempDir, toolUse } from "../loop/helpers.js";

const BIG = `BIG-FILE\n${"a line of the big file\n".repeat(400)}`;
const turn = (...content: object[]) => ({ content });

function project(): string {
  const cwd = tempDir("warden-reads-after-clearing-");
  writeFileSync(join(cwd, "big.txt"), BIG);
  writeFileSync(join(cwd, "small.txt"), "small file\n");
  writeFileSync(join(cwd, "other.txt"), "other file\n");
  return cwd;
}

/** The text of the tool result for `id` in the last request that holds it. */
function resultText(requests: ModelRequest[], id: string): string {
  for (const request of [...requests].reverse()) {
    for (const message of request.messages) {
      if (message.role !== "user") continue;
      for (const block of message.content) {
        if (block.type === "tool_result" && block.tool_use_id === id)
          return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      }
    }
  }
  return "";
}

const tools = [ReadTool, EditTool] as AnyTool[];

describe("reading a file again after its result left the conversation", () => {
  it("after microcompact cleared the earlier Read, returns the file's text", async () => {
    const cwd = project();
    const { session, requests } = sessionFor(
      cwd,
      [
        turn(toolUse("r1", "Read", { file_path: "{{cwd}}/big.txt" })),
        turn(toolUse("r2", "Read", { file_path: "{{cwd}}/small.txt" })),
        turn(toolUse("r3", "Read", { file_path: "{{cwd}}/other.txt" })),
        turn(toolUse("r4", "Read", { file_path: "{{cwd}}/big.txt" })),
        turn({ type: "text", text: "done" }),
      ],
      {
        tools,
        contextManagement: { autoCompact: false, microcompactAt: 500, microcompactTarget: 0, microcompactKeepTurns: 1 },
      },
    );
    const { terminal } = await collect(session.submitMessage("read big.txt"));
    expect(terminal.reason).toBe("completed");
    expect(resultText(requests, "r1")).toContain("[Old tool result cleared to save context: Read(");
    expect(resultText(requests, "r4")).toContain("BIG-FILE");
    expect(resultText(requests, "r4")).not.toMatch(/unchanged since last read/);
  });

  it("after a compaction, returns a file not put back whole; an edit of it asks for a read first", async () => {
    const cwd = project();
    // Each turn reports the size of its request (the loop's estimate starts from it): the window
    // (compaction at 4,000 tokens) fills when the second read comes back, and not again after.
    const sized = (input: number, ...content: object[]) => ({
      content,
      usage: { input_tokens: input, output_tokens: 5 },
    });
    const { session, requests } = sessionFor(
      cwd,
      [
        sized(500, toolUse("c1", "Read", { file_path: "{{cwd}}/big.txt" })),
        sized(4_100, toolUse("c2", "Read", { file_path: "{{cwd}}/small.txt" })),
        // The summary the compaction asks for.
        sized(4_000, { type: "text", text: "Summary: read big.txt and small.txt." }),
        sized(
          1_500,
          toolUse("c3", "Edit", { file_path: "{{cwd}}/big.txt", old_string: "BIG-FILE", new_string: "BIG" }),
          toolUse("c4", "Edit", { file_path: "{{cwd}}/small.txt", old_string: "small file", new_string: "tiny" }),
        ),
        sized(600, toolUse("c5", "Read", { file_path: "{{cwd}}/big.txt" })),
        sized(3_000, { type: "text", text: "done" }),
      ],
      { tools, contextManagement: { autoCompactAt: 4_000, microcompactAt: 1_000_000 } },
    );
    const { events, terminal } = await collect(session.submitMessage("read both"));
    expect(terminal.reason).toBe("completed");
    expect(events.filter((e) => e.type === "compact_boundary")).toHaveLength(1);
    // small.txt, read last, was put back whole (its text is in view): it can be edited; big.txt
    // was not (too long for what a compaction on this window puts back).
    expect(resultText(requests, "c3")).toMatch(/has not been read/);
    expect(resultText(requests, "c4")).not.toMatch(/has not been read/);
    expect(resultText(requests, "c5")).toContain("BIG-FILE");
  });
});
