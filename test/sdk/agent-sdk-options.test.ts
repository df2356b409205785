// The Agent SDK's options as Warden reads them, against a scripted Anthropic server on 127.0.0.1:
// each option the SDK turns into a flag (or an initialize field) changes what reaches the model or
// what the session does. The model is named as Claude Code users name it (a bare claude-* id).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  httpError,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import {
  collect,
  collectFailing,
  Prompts,
  results,
  run,
  sdkOptions,
  type Workspace,
  workspace,
} from "./sdk-harness.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.pendingSteps()).toBe(0));

interface WireRequest {
  model: string;
  system: Array<{ text: string }> | string;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: Array<{ type: string; text?: string }> | string }>;
  thinking?: { type: string; budget_tokens?: number };
}
const lastRequest = (): WireRequest => server.requests[server.requests.length - 1]?.body as WireRequest;
const systemText = (request: WireRequest) =>
  typeof request.system === "string" ? request.system : request.system.map((block) => block.text).join("\n");

function anthropic(ws: Workspace, options: Parameters<typeof sdkOptions>[1] = {}) {
  return sdkOptions(ws, {
    model: "claude-sonnet-4-6",
    ...options,
    extraEnv: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseURL, ...options.extraEnv },
  });
}

describe("Agent SDK options through Warden", () => {
  it("takes a bare claude-* model id as the Anthropic provider, and reports its key source", async () => {
    const ws = workspace();
    server.enqueue(reply().text("hi").usage({ input: 10, output: 2 }));
    const messages = await run("hello", anthropic(ws));
    expect(lastRequest().model).toBe("claude-sonnet-4-6");
    const init = messages.find((m) => m.type === "system" && m.subtype === "init");
    expect(init).toMatchObject({ model: "claude-sonnet-4-6", apiKeySource: "ANTHROPIC_API_KEY" });
    const [result] = results(messages);
    expect(result?.total_cost_usd).toBeGreaterThan(0);
    expect(Object.keys(result?.modelUsage ?? {})).toEqual(["claude-sonnet-4-6"]);
  });

  it("streams partial messages (includePartialMessages) as Anthropic stream events", async () => {
    const ws = workspace();
    server.enqueue(reply().text("streamed words", { chunks: 3 }));
    const messages = await run("hello", anthropic(ws, { includePartialMessages: true }));
    const events = messages.flatMap((m) => (m.type === "stream_event" ? [m.event] : []));
    expect(events[0]?.type).toBe("message_start");
    const deltas = events.flatMap((e) =>
      e.type === "content_block_delta" && e.delta.type === "text_delta" ? [e.delta.text] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("streamed words");
    expect(events.at(-1)?.type).toBe("message_stop");
    // As from Claude Code: message_start names the model, and its id is the assistant message's,
    // so a program can match the streamed events with the message they became.
    const start = events[0]?.type === "message_start" ? events[0].message : undefined;
    const assistant = messages.find((m) => m.type === "assistant");
    expect(start?.model).toBe("claude-sonnet-4-6");
    expect(assistant?.type === "assistant" && assistant.message.id).toBe(start?.id);
  });

  it("gives a tool call whose arguments were not JSON as the API's tool_use block, streamed and whole", async () => {
    const ws = workspace();
    server.enqueue(reply().rawTool("Bash", '{"command": "echo c"', { id: "bad_json" }), reply().text("retried"));
    const messages = await run("x", anthropic(ws, { includePartialMessages: true }));
    const call = messages
      .flatMap((m) => (m.type === "assistant" ? m.message.content : []))
      .find((b) => b.type === "tool_use");
    // Only the API's fields: a program that sends the message on to the Messages API gets no
    // "extra inputs are not permitted" for a field of Warden's own.
    expect(call).toEqual({ type: "tool_use", id: "bad_json", name: "Bash", input: {} });
    const started = messages.flatMap((m) =>
      m.type === "stream_event" && m.event.type === "content_block_start" ? [m.event.content_block] : [],
    );
    expect(started).toContainEqual({ type: "tool_use", id: "bad_json", name: "Bash", input: {} });
    const result = messages.flatMap((m) =>
      m.type === "user" && Array.isArray(m.message.content) ? m.message.content : [],
    );
    expect(JSON.stringify(result)).toContain("not a valid JSON object");
  });

  it("tells of each retry of a failed request (system api_retry)", async () => {
    const ws = workspace();
    server.enqueue(httpError(529, { retryAfterMs: 10 }), reply().text("after a retry"));
    const messages = await run("hello", anthropic(ws));
    const retry = messages.find((m) => m.type === "system" && m.subtype === "api_retry");
    expect(retry).toMatchObject({ attempt: 1, error_status: 529 });
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "after a retry" });
  });

  it("replaces the system prompt (systemPrompt string) and appends to the preset (append)", async () => {
    const ws = workspace();
    server.enqueue(reply().text("a"));
    await run("x", anthropic(ws, { systemPrompt: "You are a terse test double." }));
    expect(systemText(lastRequest())).toContain("You are a terse test double.");
    expect(systemText(lastRequest())).not.toContain("Warden");
    server.enqueue(reply().text("b"));
    await run(
      "x",
      anthropic(ws, { systemPrompt: { type: "preset", preset: "claude_code", append: "Always answer in French." } }),
    );
    expect(systemText(lastRequest())).toContain("Always answer in French.");
  });

  it("resumes with the earlier conversation sent to the model, and forks it under a new id", async () => {
    const ws = workspace();
    server.enqueue(reply().text("the secret is 7"));
    const first = results(await run("remember", anthropic(ws)))[0];
    const sessionId = first?.session_id as string;
    server.enqueue(reply().text("7"));
    const resumed = results(await run("what was it?", anthropic(ws, { resume: sessionId })))[0];
    expect(resumed?.session_id).toBe(sessionId);
    expect(JSON.stringify(lastRequest().messages)).toContain("the secret is 7");
    server.enqueue(reply().text("forked"));
    const forked = results(await run("fork", anthropic(ws, { resume: sessionId, forkSession: true })))[0];
    expect(forked?.session_id).not.toBe(sessionId);
    expect(JSON.stringify(lastRequest().messages)).toContain("the secret is 7");
  });

  it("names the session (sessionId) and writes no transcript with persistSession: false", async () => {
    const ws = workspace();
    const id = "0b0e3f1e-1111-4222-8333-444455556666";
    server.enqueue(reply().text("a"));
    expect(results(await run("x", anthropic(ws, { sessionId: id })))[0]?.session_id).toBe(id);
    const other = workspace();
    server.enqueue(reply().text("b"));
    await run("x", anthropic(other, { persistSession: false }));
    const projects = join(other.home, "projects");
    const files = existsSync(projects) ? readdirSync(projects, { recursive: true }).map(String) : [];
    expect(files.filter((f) => f.endsWith(".jsonl"))).toEqual([]);
  });

  it("limits the tools (tools, disallowedTools) and the turns (maxTurns)", async () => {
    const ws = workspace();
    server.enqueue(reply().tool("Read", { file_path: "/etc/hostname" }));
    const { messages, error } = await collectFailing(
      query({
        prompt: "x",
        options: anthropic(ws, { tools: ["Read", "Grep"], disallowedTools: ["Grep"], maxTurns: 1 }),
      }),
    );
    expect(error.message).toContain("turn limit");
    expect(lastRequest().tools?.map((t) => t.name)).toEqual(["Read"]);
    expect(results(messages)[0]).toMatchObject({ subtype: "error_max_turns", is_error: true });
    const failed = results(messages)[0];
    // An error result (the SDK's SDKResultError) carries errors: string[].
    expect(failed && "errors" in failed ? failed.errors[0] : undefined).toContain("turn limit");
  });

  it("offers the agents given in options.agents to the Agent tool", async () => {
    const ws = workspace();
    server.enqueue(reply().text("a"));
    const messages = await run(
      "x",
      anthropic(ws, { agents: { reviewer: { description: "Reviews diffs for bugs", prompt: "You review diffs." } } }),
    );
    const init = messages.find((m) => m.type === "system" && m.subtype === "init");
    expect(init && "agents" in init ? init.agents : []).toContain("reviewer");
  });

  it("reads only the settings sources named (settingSources), and only --mcp-config servers when strict", async () => {
    const ws = workspace();
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(ws.cwd, ".warden"), { recursive: true });
    writeFileSync(join(ws.cwd, ".warden", "settings.json"), JSON.stringify({ permissions: { deny: ["Read"] } }));
    // A user settings server: read with settingSources ["user"], left out under strictMcpConfig.
    const idle = { command: process.execPath, args: ["-e", "setTimeout(() => {}, 100)"] };
    writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ mcpServers: { fromsettings: idle } }));
    const serverNames = (messages: Awaited<ReturnType<typeof run>>) => {
      const init = messages.find((m) => m.type === "system" && m.subtype === "init");
      return (init && "mcp_servers" in init ? init.mcp_servers : []).map((s) => s.name).sort();
    };
    server.enqueue(reply().text("a"));
    const loose = await run("x", anthropic(ws, { settingSources: ["user"], mcpServers: { given: idle } }));
    expect(lastRequest().tools?.map((t) => t.name)).toContain("Read");
    expect(serverNames(loose)).toEqual(["fromsettings", "given"]);
    server.enqueue(reply().text("b"));
    const strict = await run(
      "x",
      anthropic(ws, { settingSources: ["user"], mcpServers: { given: idle }, strictMcpConfig: true }),
    );
    expect(serverNames(strict)).toEqual(["given"]);
    server.enqueue(reply().text("c"));
    await run("x", anthropic(ws));
    expect(lastRequest().tools?.map((t) => t.name)).not.toContain("Read");
  });

  it("falls back to fallbackModel when the main model's request fails", async () => {
    const ws = workspace();
    server.enqueue(
      httpError(404, { message: "no such model" }),
      reply().text("from the fallback").usage({ input: 1_000_000, output: 0 }),
    );
    const messages = await run("x", anthropic(ws, { model: "claude-opus-4-6", fallbackModel: "claude-haiku-4-5" }));
    expect(lastRequest().model).toBe("claude-haiku-4-5");
    const result = results(messages)[0];
    expect(result).toMatchObject({ subtype: "success", result: "from the fallback" });
    // The tokens are the fallback's, at its price (haiku 4.5: $1 per million input tokens), not
    // the main model's, which answered nothing.
    if (result?.subtype !== "success") throw new Error("expected a success");
    expect(Object.keys(result.modelUsage)).toEqual(["claude-haiku-4-5"]);
    expect(result.modelUsage["claude-haiku-4-5"]).toMatchObject({ inputTokens: 1_000_000, costUSD: 1 });
    expect(result.total_cost_usd).toBe(1);
    const answer = messages.find((m) => m.type === "assistant");
    expect(answer?.type === "assistant" && answer.message.model).toBe("claude-haiku-4-5");
  });

  it("ends with structured output for outputFormat json_schema", async () => {
    const ws = workspace();
    server.enqueue(reply().tool("StructuredOutput", { answer: 42 }), reply().text("done"));
    const messages = await run(
      "x",
      anthropic(ws, {
        outputFormat: {
          type: "json_schema",
          schema: { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] },
        },
      }),
    );
    expect(results(messages)[0]).toMatchObject({ subtype: "success", structured_output: { answer: 42 } });
  });

  it("sends maxThinkingTokens to the model as its thinking budget; setMaxThinkingTokens() changes it", async () => {
    const ws = workspace();
    server.enqueue(
      reply().thinking("let me see", { signature: "sig-1" }).text("one"),
      reply().text("two"),
      reply().text("three"),
    );
    const prompts = new Prompts();
    const q = query({ prompt: prompts, options: anthropic(ws, { maxThinkingTokens: 2048 }) });
    prompts.send("first");
    const thinkingSent: unknown[] = [];
    const answers: string[] = [];
    for await (const message of q) {
      if (message.type !== "result") continue;
      answers.push(message.subtype === "success" ? message.result : message.subtype);
      thinkingSent.push(lastRequest().thinking);
      if (answers.length === 1) {
        await q.setMaxThinkingTokens(0);
        prompts.send("second");
      } else if (answers.length === 2) {
        await q.setMaxThinkingTokens(4096);
        prompts.send("third");
      } else prompts.end();
    }
    expect(answers).toEqual(["one", "two", "three"]);
    expect(thinkingSent).toEqual([
      { type: "enabled", budget_tokens: 2048 },
      { type: "disabled" },
      { type: "enabled", budget_tokens: 4096 },
    ]);
    // The thinking block, with its signature, goes back to the model with the conversation.
    const history = server.requests[server.requests.length - 2]?.body as WireRequest;
    const assistant = history.messages.find((m) => m.role === "assistant");
    expect(assistant?.content).toContainEqual({ type: "thinking", thinking: "let me see", signature: "sig-1" });
    // The SDK's thinking option becomes --thinking: adaptive is sent as it is.
    server.enqueue(reply().text("adaptive"));
    await run("x", anthropic(workspace(), { thinking: { type: "adaptive" } }));
    expect(lastRequest().thinking).toEqual({ type: "adaptive" });
  });

  it("setModel(): the next request goes to the new model, and init and modelUsage name it", async () => {
    const ws = workspace();
    server.enqueue(reply().text("from sonnet").usage({ input: 10, output: 2 }));
    server.enqueue(reply().text("from haiku").usage({ input: 20, output: 4 }));
    const prompts = new Prompts();
    const q = query({ prompt: prompts, options: anthropic(ws) });
    prompts.send("first");
    const models: string[] = [];
    const inits: string[] = [];
    let lastResult: Extract<SDKMessage, { type: "result" }> | undefined;
    for await (const message of q) {
      if (message.type === "system" && message.subtype === "init") inits.push(message.model);
      if (message.type !== "result") continue;
      models.push(lastRequest().model);
      lastResult = message;
      if (models.length === 1) {
        await q.setModel("haiku");
        prompts.send("second");
      } else prompts.end();
    }
    expect(models).toEqual(["claude-sonnet-4-6", "claude-haiku-4-5"]);
    expect(inits).toEqual(["claude-sonnet-4-6", "claude-haiku-4-5"]);
    expect(lastResult?.modelUsage).toMatchObject({
      "claude-sonnet-4-6": { inputTokens: 10, outputTokens: 2 },
      "claude-haiku-4-5": { inputTokens: 20, outputTokens: 4 },
    });
  });

  it("accepts maxBudgetUsd and debug, and replays user messages (--replay-user-messages)", async () => {
    const ws = workspace();
    server.enqueue(reply().text("ok"));
    const q = query({
      prompt: "x",
      options: anthropic(ws, { maxBudgetUsd: 5, debug: true, extraArgs: { "replay-user-messages": null } }),
    });
    const servers = await q.mcpServerStatus();
    expect(servers).toEqual([]);
    const messages = await collect(q);
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "ok" });
    // --replay-user-messages: the prompt comes back as a user message.
    const firstUser = messages.find((m) => m.type === "user");
    expect(firstUser?.type === "user" && firstUser.message.content).toEqual([{ type: "text", text: "x" }]);
  });
});
