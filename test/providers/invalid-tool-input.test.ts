// Malformed tool-call JSON from a model, end to end: the OpenAI adapter keeps the raw text on the
// tool_use, and the single tool-call path answers it with an error result without running the tool.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolUse } from "../../src/orchestration/run-tool-use.js";
import { createOpenAIProvider } from "../../src/providers/openai.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import type { CanUseTool } from "../../src/tool/types.js";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { drain, requestOf } from "./support.js";

describe("malformed tool-call arguments", () => {
  const server = scriptedModelServerFixture();

  it("become an error result naming the raw text, and the tool never runs", async () => {
    let calls = 0;
    // Every field optional: with input {} the schema alone would let the call through.
    const tool = buildTool({
      name: "Read",
      inputSchema: z.object({ file_path: z.string().optional() }),
      prompt: async () => "reads",
      isReadOnly: () => true,
      call: async () => {
        calls += 1;
        return { data: "ran" };
      },
    });
    server.enqueue(reply().rawTool("Read", '{"file_path": "/etc/hosts', { id: "call_bad", chunks: 2 }));
    const provider = createOpenAIProvider({ apiKey: "k", baseURL: server.openaiBaseURL });
    const { events } = await drain(provider.stream(requestOf()));
    const block = events.find((e) => e.type === "block")?.block;
    if (block?.type !== "tool_use") throw new Error("expected a tool_use block");

    const context = createToolUseContext({
      options: {
        tools: [tool],
        model: "openai:test",
        cwd: "/tmp",
        sessionId: "s",
        sessionDir: "/tmp",
        isNonInteractive: true,
      },
      appState: { toolPermissionContext: emptyPermissionContext("/tmp") },
    });
    const allow: CanUseTool = async () => ({ behavior: "allow" });
    const outcome = await runToolUse(block, context, allow, undefined);
    expect(calls).toBe(0);
    expect(outcome.result.is_error).toBe(true);
    expect(outcome.result.tool_use_id).toBe("call_bad");
    expect(outcome.result.content).toMatch(/not a valid JSON object/);
    expect(outcome.result.content).toContain('{"file_path": "/etc/hosts');
  });
});
