// The real Agent SDK (@anthropic-ai/claude-agent-sdk, as Claude Code programs use it) driving
// Warden's built CLI over its stream-json protocol: conversations, permission callbacks,
// interrupts, mode changes, SDK hooks, in-process SDK MCP tools, and the replay model standing in
// for the model.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSdkMcpServer, type HookCallback, query, tool } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hang, reply, replyFrom, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { writeScript } from "../loop/helpers.js";
import { collect, Prompts, results, run, sdkOptions, workspace } from "./sdk-harness.js";

const text = (t: string) => ({ type: "text", text: t });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

describe("Warden as the Agent SDK's executable", () => {
  it("answers a one-prompt query with init, assistant and result messages in the SDK's shapes", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [text("hello from warden")], usage: { input_tokens: 7, output_tokens: 3 } },
    ]);
    const messages = await run("hi", sdkOptions(ws, { model: `replay:${script}` }));
    const init = messages.find((m) => m.type === "system" && m.subtype === "init");
    expect(init).toMatchObject({
      apiKeySource: "none",
      output_style: "default",
      plugins: [],
      permissionMode: "default",
    });
    expect(init && "tools" in init ? init.tools : []).toContain("Read");
    const assistant = messages.find((m) => m.type === "assistant");
    expect(assistant).toMatchObject({ message: { content: [text("hello from warden")], stop_sequence: null } });
    const [result] = results(messages);
    expect(result).toMatchObject({
      subtype: "success",
      result: "hello from warden",
      stop_reason: "end_turn",
      usage: { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0 },
    });
    expect(result?.session_id).toBe(init?.session_id);
  });

  it("holds a multi-turn conversation over one process: each message a prompt, one session", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [{ content: [text("first")] }, { content: [text("second")] }]);
    const prompts = new Prompts();
    const q = query({ prompt: prompts, options: sdkOptions(ws, { model: `replay:${script}` }) });
    prompts.send("one");
    const seen: string[] = [];
    const sessions = new Set<string>();
    for await (const message of q) {
      if (message.type !== "result") continue;
      seen.push(message.subtype === "success" ? message.result : message.subtype);
      sessions.add(message.session_id);
      if (seen.length === 1) prompts.send("two");
      else prompts.end();
    }
    expect(seen).toEqual(["first", "second"]);
    expect(sessions.size).toBe(1);
  });

  it("asks canUseTool: one call allowed with changed input, another denied with the model told why", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      {
        content: [
          toolUse("w1", "Write", { file_path: "{{cwd}}/allowed.txt", content: "from the model" }),
          toolUse("w2", "Write", { file_path: "{{cwd}}/denied.txt", content: "never" }),
        ],
      },
      { content: [text("done")] },
    ]);
    const asked: string[] = [];
    const messages = await run(
      "write two files",
      sdkOptions(ws, {
        model: `replay:${script}`,
        canUseTool: async (name, input) => {
          asked.push(`${name} ${String(input.file_path).split("/").pop()}`);
          if (String(input.file_path).endsWith("allowed.txt")) {
            return { behavior: "allow", updatedInput: { ...input, content: "changed by the SDK" } };
          }
          return { behavior: "deny", message: "not that one" };
        },
      }),
    );
    expect(asked.sort()).toEqual(["Write allowed.txt", "Write denied.txt"]);
    expect(readFileSync(join(ws.cwd, "allowed.txt"), "utf8")).toBe("changed by the SDK");
    expect(existsSync(join(ws.cwd, "denied.txt"))).toBe(false);
    const toolResults = messages
      .filter((m) => m.type === "user")
      .flatMap((m) => (Array.isArray(m.message.content) ? m.message.content : []))
      .filter((block) => block.type === "tool_result");
    expect(JSON.stringify(toolResults)).toContain("not that one");
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "done" });
    expect(results(messages)[0]?.permission_denials.map((d) => d.tool_use_id)).toEqual(["w2"]);
  });

  it("stops a running turn on interrupt() and takes the next prompt", async () => {
    // The interrupt is sent once the model request is on the wire: an interrupt that lands before
    // the request leaves (also correct: the turn ends without asking the model) would leave a
    // replay script's first turn unplayed for the next prompt, which made this test flaky.
    const ws = workspace();
    const server = await startScriptedModelServer();
    let arrived: () => void = () => undefined;
    const onTheWire = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    server.enqueue(
      replyFrom(() => {
        arrived();
        return hang();
      }),
      reply().text("after the interrupt"),
    );
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, {
        model: "claude-sonnet-4-6",
        extraEnv: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      }),
    });
    prompts.send("slow one");
    const outcomes: string[] = [];
    try {
      for await (const message of q) {
        if (message.type === "system" && message.subtype === "session_state_changed" && message.state === "running") {
          if (outcomes.length === 0) {
            await onTheWire;
            await q.interrupt();
          }
        }
        if (message.type !== "result") continue;
        outcomes.push(message.subtype === "success" ? message.result : message.subtype);
        if (outcomes.length === 1) prompts.send("again");
        else prompts.end();
      }
    } finally {
      await server.close();
    }
    expect(outcomes).toEqual(["error_during_execution", "after the interrupt"]);
    expect(server.requests).toHaveLength(2);
  });

  it("changes the permission mode with setPermissionMode(): an edit then runs without asking", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/first.txt", content: "a" })] },
      { content: [text("refused")] },
      { content: [toolUse("w2", "Write", { file_path: "{{cwd}}/second.txt", content: "b" })] },
      { content: [text("written")] },
    ]);
    const prompts = new Prompts();
    const asked: string[] = [];
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, {
        model: `replay:${script}`,
        canUseTool: async (name) => {
          asked.push(name);
          return { behavior: "deny", message: "no" };
        },
      }),
    });
    prompts.send("first");
    let count = 0;
    for await (const message of q) {
      if (message.type !== "result") continue;
      count++;
      if (count === 1) {
        await q.setPermissionMode("acceptEdits");
        prompts.send("second");
      } else prompts.end();
    }
    expect(asked).toEqual(["Write"]);
    expect(existsSync(join(ws.cwd, "first.txt"))).toBe(false);
    expect(readFileSync(join(ws.cwd, "second.txt"), "utf8")).toBe("b");
  });

  it("runs an SDK hook that blocks a tool the rules allow", async () => {
    const ws = workspace();
    const marker = join(ws.cwd, "ran.txt");
    const script = writeScript(ws.cwd, [
      { content: [toolUse("b1", "Bash", { command: `touch ${marker}` })] },
      { content: [text("blocked, fine")] },
    ]);
    const inputs: unknown[] = [];
    const block: HookCallback = async (input) => {
      inputs.push(input);
      return { decision: "block", reason: "no shell today" };
    };
    const messages = await run(
      "run it",
      sdkOptions(ws, {
        model: `replay:${script}`,
        allowedTools: ["Bash"],
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [block] }] },
      }),
    );
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: `touch ${marker}` },
    });
    expect(existsSync(marker)).toBe(false);
    const resultsText = JSON.stringify(messages.filter((m) => m.type === "user"));
    expect(resultsText).toContain("no shell today");
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "blocked, fine" });
  });

  it("calls a tool of an in-process SDK MCP server (createSdkMcpServer) through the SDK", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("m1", "mcp__calc__add", { a: 2, b: 3 })] },
      { content: [text("the sum is in")] },
    ]);
    const calls: Array<{ a: number; b: number }> = [];
    const calc = createSdkMcpServer({
      name: "calc",
      version: "1.0.0",
      tools: [
        tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async (args) => {
          calls.push(args);
          return { content: [{ type: "text", text: `sum=${args.a + args.b}` }] };
        }),
      ],
    });
    const messages = await run(
      "add",
      sdkOptions(ws, { model: `replay:${script}`, mcpServers: { calc }, allowedTools: ["mcp__calc__add"] }),
    );
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    const init = messages.find((m) => m.type === "system" && m.subtype === "init");
    expect(init && "tools" in init ? init.tools : []).toContain("mcp__calc__add");
    expect(JSON.stringify(messages.filter((m) => m.type === "user"))).toContain("sum=5");
    expect(results(messages)[0]).toMatchObject({ subtype: "success" });
  });

  it("resumes a session by id (options.resume) with its conversation", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [{ content: [text("remember 42")] }]);
    const first = await run("pick a number", sdkOptions(ws, { model: `replay:${script}` }));
    const sessionId = results(first)[0]?.session_id as string;
    const script2 = writeScript(ws.cwd, [{ content: [text("it was 42")] }], "second.jsonl");
    const second = await collect(
      query({ prompt: "which?", options: sdkOptions(ws, { model: `replay:${script2}`, resume: sessionId }) }),
    );
    expect(results(second)[0]).toMatchObject({ subtype: "success", result: "it was 42", session_id: sessionId });
  });
});
