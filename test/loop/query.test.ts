import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CONTINUE_AFTER_MAX_TOKENS,
  INTERRUPTED_BY_USER,
  INTERRUPTED_DURING_TOOLS,
  MAX_OUTPUT_TOKENS_RECOVERIES,
} from "../../src/loop/query.js";
import { createSession } from "../../src/loop/session.js";
import type { Message, ToolResultBlock, UserMessage } from "../../src/messages/types.js";
import type { Provider, ProviderEvent } from "../../src/providers/types.js";
import { buildTool } from "../../src/tool/build-tool.js";
import type { AnyTool } from "../../src/tool/types.js";
import { collect, EchoTool, sessionFor, tempDir, text, toolUse } from "./helpers.js";

function resultsIn(messages: readonly Message[]): ToolResultBlock[] {
  return messages.flatMap((m) =>
    m.role === "user" ? m.content.filter((b): b is ToolResultBlock => b.type === "tool_result") : [],
  );
}

/** Every tool_use of the conversation has exactly one tool_result. */
function expectPaired(messages: readonly Message[]): void {
  const uses = messages.flatMap((m) => (m.role === "assistant" ? m.content.filter((b) => b.type === "tool_use") : []));
  const results = resultsIn(messages);
  for (const use of uses) {
    if (use.type !== "tool_use") continue;
    expect(results.filter((r) => r.tool_use_id === use.id)).toHaveLength(1);
  }
  expect(results).toHaveLength(uses.length);
}

/** A tool that reports progress, then waits until aborted (or `ms` passes). */
function waitingTool(onStart: () => void, honoursAbort = true): AnyTool {
  return buildTool({
    name: "Wait",
    inputSchema: z.object({ ms: z.number() }),
    async prompt() {
      return "Waits.";
    },
    isReadOnly: () => true,
    async call({ ms }, context, _can, _parent, onProgress) {
      onProgress?.({ waiting: ms });
      onStart();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        if (honoursAbort) {
          context.abortController.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted"));
          });
        }
      });
      return { data: "waited" };
    },
  }) as AnyTool;
}

describe("query loop", () => {
  it("runs a tool call, feeds its result back and completes when a turn has no tool call", async () => {
    const cwd = tempDir();
    const { session, requests } = sessionFor(cwd, [
      {
        content: [text("checking"), toolUse("t1", "Echo", { text: "hi" })],
        usage: { input_tokens: 10, output_tokens: 3 },
      },
      { content: [text("all done")], usage: { input_tokens: 20, output_tokens: 2 } },
    ]);
    const { events, terminal } = await collect(session.submitMessage("say hi"));
    expect(terminal.reason).toBe("completed");
    expect(terminal.turnCount).toBe(2);
    expect(terminal.usage.input_tokens).toBe(30);
    expect(session.usage.output_tokens).toBe(5);
    expect(events.map((e) => e.type)).toEqual([
      "request_start",
      "text_delta",
      "assistant",
      "tool_result",
      "user",
      "request_start",
      "text_delta",
      "assistant",
      "terminal",
    ]);
    expect(resultsIn(session.messages)).toEqual([{ type: "tool_result", tool_use_id: "t1", content: "echo: hi" }]);
    // The second request carries the tool result right after the assistant's tool call.
    const second = requests[1]?.messages ?? [];
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect((second[2] as UserMessage).content[0]).toMatchObject({ type: "tool_result", tool_use_id: "t1" });
  });

  it("stops with max_turns after the limit, with every tool call of the last turn answered", async () => {
    const cwd = tempDir();
    const loopTurn = (i: number) => ({ content: [toolUse(`t${i}`, "Echo", { text: String(i) })] });
    const { session, requests } = sessionFor(cwd, [loopTurn(1), loopTurn(2), loopTurn(3), loopTurn(4)], {
      maxTurns: 2,
    });
    const { terminal } = await collect(session.submitMessage("loop"));
    expect(terminal.reason).toBe("max_turns");
    expect(terminal.turnCount).toBe(2);
    expect(requests).toHaveLength(2);
    expectPaired(session.messages);
    expect(session.messages.at(-1)?.role).toBe("user");
  });

  it("turns an unknown tool into an error result and goes on", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(cwd, [{ content: [toolUse("t1", "Nope", {})] }, { content: [text("ok")] }]);
    const { terminal } = await collect(session.submitMessage("x"));
    expect(terminal.reason).toBe("completed");
    const [result] = resultsIn(session.messages);
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain("No such tool available: Nope");
  });

  it("turns input that fails the schema into an error result naming the field", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(cwd, [
      { content: [toolUse("t1", "Echo", { text: 42 })] },
      { content: [text("ok")] },
    ]);
    await collect(session.submitMessage("x"));
    const [result] = resultsIn(session.messages);
    expect(result?.is_error).toBe(true);
    expect(result?.content).toMatch(/InputValidationError/);
    expect(result?.content).toMatch(/- text: /);
  });

  it("turns a throwing tool into an error result carrying its message", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(cwd, [
      { content: [toolUse("t1", "Throw", {}), toolUse("t2", "Echo", { text: "after" })] },
      { content: [text("ok")] },
    ]);
    const { terminal } = await collect(session.submitMessage("x"));
    expect(terminal.reason).toBe("completed");
    const [thrown, echoed] = resultsIn(session.messages);
    expect(thrown).toMatchObject({ tool_use_id: "t1", is_error: true, content: "Error: disk on fire" });
    expect(echoed).toMatchObject({ tool_use_id: "t2", content: "echo: after" });
  });

  it("recovers from max_output_tokens with a continue message", async () => {
    const cwd = tempDir();
    const { session, requests } = sessionFor(cwd, [
      { content: [text("first half")], stop_reason: "max_tokens" },
      { content: [text("second half")], stop_reason: "end_turn" },
    ]);
    const { terminal } = await collect(session.submitMessage("write a lot"));
    expect(terminal.reason).toBe("completed");
    expect(requests).toHaveLength(2);
    const nudge = session.messages[2] as UserMessage;
    expect(nudge.isMeta).toBe(true);
    expect(nudge.content).toEqual([{ type: "text", text: CONTINUE_AFTER_MAX_TOKENS }]);
  });

  it(`gives up after ${MAX_OUTPUT_TOKENS_RECOVERIES} continue messages`, async () => {
    const cwd = tempDir();
    const cut = { content: [text("...")], stop_reason: "max_tokens" };
    const { session, requests } = sessionFor(cwd, [cut, cut, cut, cut, { content: [text("never reached")] }]);
    const { terminal } = await collect(session.submitMessage("write a lot"));
    expect(terminal.reason).toBe("max_output_tokens");
    expect(requests).toHaveLength(MAX_OUTPUT_TOKENS_RECOVERIES + 1);
  });

  it("ends with model_error and a clear message when the replay script runs out", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(cwd, [{ content: [toolUse("t1", "Echo", { text: "a" })] }]);
    const { terminal } = await collect(session.submitMessage("x"));
    expect(terminal.reason).toBe("model_error");
    expect(terminal.error).toMatch(/ran out: the session asked for model turn 2 but the script has only 1/);
    expectPaired(session.messages);
  });

  it("ends with prompt_too_long when the provider says the prompt is too long", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(cwd, [
      { error: { message: "prompt is too long: 210000 tokens", status: 400, kind: "prompt_too_long" } },
    ]);
    const { terminal } = await collect(session.submitMessage("x"));
    expect(terminal.reason).toBe("prompt_too_long");
    expect(terminal.error).toContain("210000 tokens");
  });

  it("aborts during streaming: aborted_streaming, with an interruption note", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(cwd, [{ content: [text("slow")], delay_ms: 60_000 }]);
    const run = collect(session.submitMessage("x"));
    setTimeout(() => session.abort(), 20);
    const { terminal } = await run;
    expect(terminal.reason).toBe("aborted_streaming");
    expect(session.messages.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: INTERRUPTED_BY_USER }] });
    expect(session.isRunning).toBe(false);
  });

  it("aborts during streaming even when the provider ignores the abort signal", async () => {
    const cwd = tempDir();
    // A model stream that sends one tool call and then never ends, deaf to abort.
    const stuck: Provider = {
      name: "stuck",
      async *stream(): AsyncGenerator<ProviderEvent> {
        yield { type: "block", block: { type: "tool_use", id: "t1", name: "Echo", input: { text: "a" } } };
        await new Promise(() => {});
      },
    };
    // Echo that aborts the session shortly after it has answered, so that "finished before the
    // abort" does not depend on how fast a loaded machine starts the tool.
    let abortSoon = () => {};
    const echoThenAbort = buildTool({
      ...EchoTool,
      async call({ text }: { text: string }) {
        abortSoon();
        return { data: `echo: ${text}` };
      },
    }) as AnyTool;
    const session = createSession({
      provider: stuck,
      model: "m",
      tools: [echoThenAbort],
      canUseTool: async () => ({ behavior: "allow" }),
      cwd,
      transcript: false,
      loadMemory: false,
    });
    abortSoon = () => setTimeout(() => session.abort(), 20);
    const { terminal } = await collect(session.submitMessage("x"));
    expect(terminal.reason).toBe("aborted_streaming");
    // The tool call that was already complete started while the model streamed and finished
    // before the abort: it is kept, paired with its real result.
    expectPaired(session.messages);
    expect(resultsIn(session.messages)[0]).toMatchObject({ tool_use_id: "t1", content: "echo: a" });
  });

  it("aborts during a tool: aborted_tools, the running and the queued calls get interrupted results", async () => {
    const cwd = tempDir();
    let abortNow: () => void = () => {};
    const tool = waitingTool(() => abortNow());
    const { session } = sessionFor(
      cwd,
      [
        { content: [toolUse("t1", "Wait", { ms: 60_000 }), toolUse("t2", "Wait", { ms: 1 })] },
        { content: [text("never")] },
      ],
      { tools: [tool] },
    );
    // Tools start while the model streams; abort once the (instant) replay stream has ended.
    abortNow = () => setTimeout(() => session.abort(), 10);
    const { events, terminal } = await collect(session.submitMessage("x"));
    expect(terminal.reason).toBe("aborted_tools");
    expect(events.some((e) => e.type === "tool_progress" && e.toolUseId === "t1")).toBe(true);
    expectPaired(session.messages);
    const results = resultsIn(session.messages);
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ["t1", true],
      ["t2", true],
    ]);
    expect(session.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: INTERRUPTED_DURING_TOOLS }],
    });
  });

  it("aborts during a tool that ignores the signal without waiting for it", async () => {
    const cwd = tempDir();
    let abortNow: () => void = () => {};
    const tool = waitingTool(() => abortNow(), false);
    const { session } = sessionFor(cwd, [{ content: [toolUse("t1", "Wait", { ms: 600_000 })] }], { tools: [tool] });
    abortNow = () => setTimeout(() => session.abort(), 10);
    const { terminal } = await collect(session.submitMessage("x"));
    expect(terminal.reason).toBe("aborted_tools");
    expectPaired(session.messages);
  });

  it("drains pending reminders into one meta user message before the next request", async () => {
    const cwd = tempDir();
    const { session, requests } = sessionFor(cwd, [
      { content: [toolUse("t1", "Echo", { text: "a" })] },
      { content: [text("ok")] },
    ]);
    session.channels.reminders.send("background job 1 finished", "file changed");
    await collect(session.submitMessage("x"));
    const reminders = session.messages.filter((m) => m.role === "user" && m.isMeta);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.content).toEqual([
      { type: "text", text: "<system-reminder>\nbackground job 1 finished\n\nfile changed\n</system-reminder>" },
    ]);
    expect(session.channels.reminders.peek()).toEqual([]);
    // Sent with the first request, merged into the user turn it follows.
    expect(requests[0]?.messages).toHaveLength(1);
    expect(requests[0]?.messages[0]?.content).toHaveLength(2);
  });

  it("sends byte-identical system prompt and tool schemas on every request", async () => {
    const cwd = tempDir();
    const { session, requests } = sessionFor(cwd, [
      { content: [toolUse("t1", "Echo", { text: "a" })] },
      { content: [toolUse("t2", "Echo", { text: "b" })] },
      { content: [text("ok")] },
    ]);
    await collect(session.submitMessage("x"));
    expect(requests).toHaveLength(3);
    const heads = requests.map((r) => JSON.stringify({ system: r.system, tools: r.tools }));
    expect(new Set(heads).size).toBe(1);
    expect(requests[0]?.tools.map((t) => t.name)).toEqual(["Echo", "Throw"]);
    expect(requests[0]?.tools[0]?.description).toBe("Returns the text it is given.");
    expect(requests[0]?.tools[0]?.input_schema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
    });
    // And the conversation prefix of request 2 is repeated unchanged at the start of request 3.
    const second = JSON.stringify(requests[1]?.messages);
    expect(JSON.stringify(requests[2]?.messages).startsWith(second.slice(0, -1))).toBe(true);
  });

  it("drops a partial turn when the provider restarts its stream", async () => {
    const cwd = tempDir();
    const flaky: Provider = {
      name: "flaky",
      async *stream(): AsyncGenerator<ProviderEvent> {
        yield { type: "text_delta", text: "half" };
        yield { type: "block", block: { type: "text", text: "half" } };
        yield { type: "reset" } as unknown as ProviderEvent;
        yield { type: "text_delta", text: "whole answer" };
        yield { type: "block", block: { type: "text", text: "whole answer" } };
        yield { type: "stop", stopReason: "end_turn" };
      },
    };
    const session = createSession({
      provider: flaky,
      model: "m",
      tools: [],
      canUseTool: async () => ({ behavior: "allow" }),
      cwd,
      transcript: false,
      loadMemory: false,
    });
    const { events } = await collect(session.submitMessage("x"));
    expect(events.some((e) => e.type === "stream_reset")).toBe(true);
    expect(session.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "whole answer" }],
    });
  });

  it("records refused calls as permission denials and tells the model why", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(
      cwd,
      [{ content: [toolUse("t1", "Echo", { text: "a" })] }, { content: [text("ok")] }],
      {
        canUseTool: async () => ({
          behavior: "deny",
          message: "Echo is not allowed here",
          decisionReason: { type: "other", reason: "test" },
        }),
      },
    );
    await collect(session.submitMessage("x"));
    expect(session.permissionDenials).toEqual([
      { tool_name: "Echo", tool_use_id: "t1", tool_input: { text: "a" }, reason: { type: "other", reason: "test" } },
    ]);
    expect(resultsIn(session.messages)[0]).toMatchObject({ is_error: true, content: "Echo is not allowed here" });
  });

  it("keeps the conversation across prompts and refuses a second prompt while one runs", async () => {
    const cwd = tempDir();
    const { session, requests } = sessionFor(cwd, [{ content: [text("one")] }, { content: [text("two")] }]);
    await collect(session.submitMessage("first"));
    const second = session.submitMessage("second");
    await second.next();
    await expect(session.submitMessage("overlap").next()).rejects.toThrow(/already running/);
    await collect(second);
    expect(requests[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(session.messages).toHaveLength(4);
  });
});
