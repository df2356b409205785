// Both adapters, through their real SDKs and our http fetch, against a scripted server speaking
// each wire protocol with SSE streaming.
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/types.js";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { ADAPTERS, drain, requestOf, textDeltas } from "./support.js";

describe.each(ADAPTERS)("$protocol adapter", ({ protocol, make }) => {
  const server = scriptedModelServerFixture();

  it("streams text as deltas, then the complete block, usage and end_turn", async () => {
    server.enqueue(reply().text("Hello from the model", { chunks: 4 }));
    const { events, error } = await drain(make(server).stream(requestOf()));
    expect(error).toBeUndefined();
    const deltas = events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBe(4);
    expect(textDeltas(events)).toBe("Hello from the model");
    expect(events.filter((e) => e.type === "block")).toEqual([
      { type: "block", block: { type: "text", text: "Hello from the model" } },
    ]);
    expect(events.at(-1)).toEqual({ type: "stop", stopReason: "end_turn" });
    expect(events.at(-2)?.type).toBe("usage");
    expect(server.requests[0]?.protocol).toBe(protocol);
  });

  it("assembles a tool call whose JSON arguments arrive in pieces", async () => {
    const input = { file_path: "/tmp/some file.txt", offset: 10, options: { deep: [1, 2, 3] } };
    server.enqueue(reply().text("Let me read it.").tool("Read", input, { id: "toolu_piece", chunks: 7 }));
    const { events, error } = await drain(make(server).stream(requestOf()));
    expect(error).toBeUndefined();
    const blocks = events.filter((e) => e.type === "block").map((e) => e.block);
    expect(blocks).toEqual([
      { type: "text", text: "Let me read it." },
      { type: "tool_use", id: "toolu_piece", name: "Read", input },
    ]);
    expect(events.at(-1)).toEqual({ type: "stop", stopReason: "tool_use" });
  });

  it("returns parallel tool calls of one turn in order, each with its own arguments", async () => {
    const builder = reply()
      .tool("Read", { file_path: "/a" }, { id: "call_a", chunks: 3 })
      .tool("Grep", { pattern: "needle", path: "/src" }, { id: "call_b", chunks: 5 })
      .tool("Glob", { pattern: "**/*.ts" }, { id: "call_c", chunks: 2 });
    // OpenAI-compatible servers may interleave the argument deltas of parallel calls.
    server.enqueue(protocol === "openai" ? builder.interleaveToolCalls() : builder);
    const { events, error } = await drain(make(server).stream(requestOf()));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === "block").map((e) => e.block)).toEqual([
      { type: "tool_use", id: "call_a", name: "Read", input: { file_path: "/a" } },
      { type: "tool_use", id: "call_b", name: "Grep", input: { pattern: "needle", path: "/src" } },
      { type: "tool_use", id: "call_c", name: "Glob", input: { pattern: "**/*.ts" } },
    ]);
  });

  it("reports usage, cache reads counted apart from fresh input", async () => {
    server.enqueue(reply().text("ok").usage({ input: 100, output: 42, cacheRead: 30, cacheWrite: 7 }));
    const { events } = await drain(make(server).stream(requestOf()));
    const usage = events.filter((e) => e.type === "usage");
    expect(usage).toHaveLength(1);
    expect(usage[0]).toEqual({
      type: "usage",
      usage: {
        input_tokens: 100,
        output_tokens: 42,
        cache_read_input_tokens: 30,
        // Chat Completions does not report cache writes.
        cache_creation_input_tokens: protocol === "anthropic" ? 7 : 0,
      },
    });
  });

  it("streams thinking before the text", async () => {
    server.enqueue(reply().thinking("Consider the file first.", { chunks: 2 }).text("Done."));
    const { events } = await drain(make(server).stream(requestOf()));
    expect(events.filter((e) => e.type === "thinking_delta").length).toBe(2);
    const blocks = events.filter((e) => e.type === "block").map((e) => e.block);
    expect(blocks[0]).toMatchObject({ type: "thinking", thinking: "Consider the file first." });
    expect(blocks[1]).toEqual({ type: "text", text: "Done." });
  });

  it("reports tool_use when the turn has tool calls, even if the server says the turn simply stopped", async () => {
    // Ollama and other compatible servers answer tool calls with finish_reason "stop".
    server.enqueue(reply().tool("Read", { file_path: "/a" }, { id: "c1" }).stop("end_turn"));
    const { events } = await drain(make(server).stream(requestOf()));
    expect(events.at(-1)).toEqual({ type: "stop", stopReason: protocol === "openai" ? "tool_use" : "end_turn" });
  });

  it("maps a length stop to max_tokens", async () => {
    server.enqueue(reply().text("cut short").stop("max_tokens"));
    const { events } = await drain(make(server).stream(requestOf()));
    expect(events.at(-1)).toEqual({ type: "stop", stopReason: "max_tokens" });
  });

  it("keeps malformed tool-call JSON as a tool_use with the raw text and the parse error, without failing", async () => {
    server.enqueue(reply().rawTool("Read", '{"file_path": "/a', { id: "call_bad" }));
    const { events, error } = await drain(make(server).stream(requestOf()));
    expect(error).toBeUndefined();
    const block = events.find((e) => e.type === "block")?.block;
    expect(block).toMatchObject({
      type: "tool_use",
      id: "call_bad",
      name: "Read",
      input: {},
      invalidInput: { raw: '{"file_path": "/a' },
    });
    expect(block?.type === "tool_use" && block.invalidInput?.error).toMatch(/JSON/);
  });

  it("sends the key, the model, the tools and a streaming request", async () => {
    server.enqueue(reply().text("ok"));
    await drain(make(server).stream(requestOf()));
    const [request] = server.requests;
    const body = request?.body as Record<string, unknown>;
    expect(body.model).toBe("test-model");
    expect(body.stream).toBe(true);
    expect(request?.headers.authorization ?? request?.headers["x-api-key"]).toMatch(/test-key/);
    if (protocol === "anthropic") {
      expect(body.tools).toEqual([
        { name: "Read", description: "Reads a file", input_schema: expect.objectContaining({ type: "object" }) },
      ]);
      expect(body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
      expect(body.max_tokens).toBe(1024);
    } else {
      expect(body.tools).toEqual([
        {
          type: "function",
          function: {
            name: "Read",
            description: "Reads a file",
            parameters: expect.objectContaining({ type: "object" }),
          },
        },
      ]);
      expect(body.stream_options).toEqual({ include_usage: true });
      // A non-OpenAI host gets the widely supported max_tokens.
      expect(body.max_tokens).toBe(1024);
      expect((body.messages as unknown[])[0]).toEqual({ role: "system", content: "You are a test." });
    }
  });

  it("turns a stream that ends without its final event into a retryable stream_cut error", async () => {
    server.enqueue(reply().text("half a turn", { chunks: 3 }).cutAfter(4));
    const { events, error } = await drain(make(server).stream(requestOf()));
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "stream_cut", retryable: true });
  });

  it("stops at once when aborted while streaming, with an aborted error", async () => {
    server.enqueue(reply().text("never finishes", { chunks: 5 }).hangAfter(4));
    const controller = new AbortController();
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of make(server).stream(requestOf({ signal: controller.signal }))) {
        seen.push(event.type);
        if (event.type === "text_delta") controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(seen).toContain("text_delta");
    expect(caught).toBeInstanceOf(ProviderError);
    expect(caught).toMatchObject({ kind: "aborted", retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it("refuses an already-aborted request without sending it", async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await drain(make(server).stream(requestOf({ signal: controller.signal })));
    expect(error).toMatchObject({ kind: "aborted" });
    expect(server.requests).toHaveLength(0);
  });
});
