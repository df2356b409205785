// Seams between features, seen by a program written for Claude Code with the real Agent SDK: a
// foreground subagent's messages reach it named by the Agent call (parent_tool_use_id), and an
// outputFormat run's result counts every model request and keeps to maxTurns.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { collectFailing, results, run, sdkOptions, type Workspace, workspace } from "./sdk-harness.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.pendingSteps()).toBe(0));

function anthropic(ws: Workspace, options: Parameters<typeof sdkOptions>[1] = {}) {
  return sdkOptions(ws, {
    model: "claude-sonnet-4-6",
    ...options,
    extraEnv: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
  });
}

const SCHEMA = { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] };

describe("Agent SDK seams", () => {
  it("streams a foreground subagent's messages with parent_tool_use_id, and asks canUseTool for its calls", async () => {
    const ws = workspace();
    server.enqueue(
      reply().tool(
        "Agent",
        { description: "make notes", prompt: "Write notes.txt", subagent_type: "general-purpose" },
        { id: "agent_call" },
      ),
      reply()
        .text("Writing.")
        .tool("Write", { file_path: `${ws.cwd}/notes.txt`, content: "n" }, { id: "child_w" }),
      reply().text("notes.txt is written"),
      reply().text("The agent wrote the notes."),
    );
    const asked: string[] = [];
    const messages = await run(
      "delegate",
      anthropic(ws, {
        canUseTool: async (name, input, { toolUseID }) => {
          asked.push(`${name} ${toolUseID}`);
          return { behavior: "allow", updatedInput: input };
        },
      }),
    );
    expect(asked).toEqual(["Write child_w"]);
    expect(existsSync(join(ws.cwd, "notes.txt"))).toBe(true);
    const ofAgent = messages.filter(
      (m) => (m.type === "assistant" || m.type === "user") && m.parent_tool_use_id === "agent_call",
    );
    expect(ofAgent.map((m) => m.type)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(ofAgent[1])).toContain('"id":"child_w"');
    expect(JSON.stringify(ofAgent[3])).toContain("notes.txt is written");
    // The main loop's own messages keep parent_tool_use_id null.
    const mainAssistants = messages.filter((m) => m.type === "assistant" && m.parent_tool_use_id === null);
    expect(mainAssistants).toHaveLength(2);
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "The agent wrote the notes." });
  });

  it("counts the request that made the structured output in num_turns and usage", async () => {
    const ws = workspace();
    server.enqueue(
      reply().text("The answer is 42.").usage({ input: 100, output: 10 }),
      reply().tool("StructuredOutput", { answer: 42 }).usage({ input: 200, output: 20 }),
      reply().text("done").usage({ input: 300, output: 30 }),
    );
    const messages = await run("x", anthropic(ws, { outputFormat: { type: "json_schema", schema: SCHEMA } }));
    expect(results(messages)[0]).toMatchObject({
      subtype: "success",
      num_turns: 3,
      usage: { input_tokens: 600, output_tokens: 60 },
      structured_output: { answer: 42 },
    });
  });

  it("keeps a canUseTool deny's message as the call's result when it also interrupts, and ends the turn", async () => {
    const ws = workspace();
    const at = server.requests.length;
    server.enqueue(
      reply()
        .tool("Write", { file_path: `${ws.cwd}/first.txt`, content: "1" }, { id: "w1" })
        .tool("Write", { file_path: `${ws.cwd}/second.txt`, content: "2" }, { id: "w2" }),
    );
    const asked: string[] = [];
    const { messages } = await collectFailing(
      query({
        prompt: "write both",
        options: anthropic(ws, {
          canUseTool: async (_name, _input, { toolUseID }) => {
            asked.push(toolUseID);
            return { behavior: "deny", message: "stop: the release is frozen", interrupt: true };
          },
        }),
      }),
    );
    const resultOf = (id: string) =>
      JSON.stringify(
        messages
          .filter((m) => m.type === "user")
          .flatMap((m) => (Array.isArray(m.message.content) ? m.message.content : []))
          .find((block) => block.type === "tool_result" && block.tool_use_id === id),
      );
    // The refused call keeps the SDK's words; the call after it never runs nor asks; the turn ends
    // without a follow-up request.
    expect(asked).toEqual(["w1"]);
    expect(resultOf("w1")).toContain("stop: the release is frozen");
    expect(resultOf("w2")).toContain("Interrupted by the user");
    expect(existsSync(join(ws.cwd, "first.txt"))).toBe(false);
    expect(existsSync(join(ws.cwd, "second.txt"))).toBe(false);
    expect(server.requests.length - at).toBe(1);
    expect(results(messages)[0]?.subtype).toBe("error_during_execution");
  });

  it("keeps to maxTurns when the model is sent back for the structured output", async () => {
    const ws = workspace();
    const at = server.requests.length;
    server.enqueue(reply().text("no"), reply().text("still no"));
    const { messages } = await collectFailing(
      query({
        prompt: "x",
        options: anthropic(ws, { maxTurns: 2, outputFormat: { type: "json_schema", schema: SCHEMA } }),
      }),
    );
    expect(server.requests.length - at).toBe(2);
    expect(results(messages)[0]).toMatchObject({ subtype: "error_max_turns", num_turns: 2 });
  });
});
