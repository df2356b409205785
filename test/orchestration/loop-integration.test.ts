// The executor and the result budget inside the real loop, seen from outside: the real Anthropic
// provider talks HTTP to the scripted model server on 127.0.0.1, whose recorded request bodies
// show exactly what the model was sent.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { QueryEvent } from "../../src/loop/events.js";
import { INTERRUPTED_BY_USER, INTERRUPTED_DURING_TOOLS } from "../../src/loop/query.js";
import { createSession, type SessionEngine } from "../../src/loop/session.js";
import type { Message, ToolResultBlock } from "../../src/messages/types.js";
import type { InterruptOutcome } from "../../src/orchestration/interrupts.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { buildTool } from "../../src/tool/build-tool.js";
import type { AnyTool, InterruptBehavior, ToolUseContext } from "../../src/tool/types.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { allowAll, tempSessionDir } from "./fixtures.js";

let server: ScriptedModelServer;
const savedHome = process.env.WARDEN_HOME;

beforeAll(async () => {
  server = await startScriptedModelServer();
  process.env.WARDEN_HOME = await tempSessionDir();
});
afterAll(async () => {
  await server.close();
  if (savedHome === undefined) delete process.env.WARDEN_HOME;
  else process.env.WARDEN_HOME = savedHome;
});
afterEach(() => {
  expect(server.pendingSteps()).toBe(0);
});

function sessionWith(tools: AnyTool[]): SessionEngine {
  return createSession({
    provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
    model: "scripted",
    tools,
    canUseTool: allowAll,
    cwd: process.env.WARDEN_HOME!,
    transcript: false,
    loadMemory: false,
  });
}

async function run(session: SessionEngine, prompt: string): Promise<Array<QueryEvent & { at: number }>> {
  const events: Array<QueryEvent & { at: number }> = [];
  for await (const event of session.submitMessage(prompt)) events.push({ ...event, at: performance.now() });
  return events;
}

function expectEveryToolUsePaired(messages: Message[]): void {
  const uses = messages.flatMap((m) => m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])));
  const results = messages.flatMap((m) => m.content.flatMap((b) => (b.type === "tool_result" ? [b.tool_use_id] : [])));
  expect(results.sort()).toEqual(uses.sort());
}

/** A tool that returns `size` characters of distinct lines, optionally first overwriting a file. */
const bigTool = buildTool({
  name: "Big",
  inputSchema: z.object({ size: z.number(), overwrite: z.string().optional() }),
  prompt: async () => "Returns a large output.",
  isConcurrencySafe: () => true,
  call: async (args: { size: number; overwrite?: string }, context: ToolUseContext) => {
    if (args.overwrite)
      await writeFile(join(context.options.sessionDir, "tool-results", args.overwrite), "changed by a later command");
    let text = `${context.toolUseId}\n`;
    for (let line = 0; text.length < args.size; line++) text += `row ${line} ${"y".repeat(60)}\n`;
    return { data: text.slice(0, args.size) };
  },
});

function stampTool(
  name: string,
  interrupt: InterruptBehavior,
  onStart: (startedAt: number) => void,
  ms: number,
): AnyTool {
  return buildTool({
    name,
    inputSchema: z.object({}),
    prompt: async () => "Waits.",
    isConcurrencySafe: () => true,
    interruptBehavior: () => interrupt,
    call: async (_args: Record<string, never>, context: ToolUseContext) => {
      onStart(performance.now());
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        context.abortController.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("aborted"));
        });
      });
      return { data: `${name} finished` };
    },
  });
}

type AnthropicBody = { system?: unknown; tools?: unknown; messages: Array<{ role: string; content: unknown }> };
/** Requests are numbered from the start of the current test (the server is shared). */
let firstRequestOfTest = 0;
beforeEach(() => {
  firstRequestOfTest = server.requests.length;
});
const requestsOfTest = () => server.requests.slice(firstRequestOfTest);
const bodyOf = (index: number) => requestsOfTest()[index]!.body as AnthropicBody;
const lastBody = () => requestsOfTest().at(-1)!.body as AnthropicBody;
/** The request without its moving cache breakpoint (the one marker allowed to move each turn). */
const withoutCacheMarkers = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v) => (key === "cache_control" ? undefined : v));

function toolResultsIn(body: AnthropicBody): Array<{ tool_use_id: string; content: string }> {
  return body.messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Array<{ type: string; tool_use_id: string; content: string }>).filter(
          (b) => b.type === "tool_result",
        )
      : [],
  );
}

describe("the loop runs tools through the streaming executor", () => {
  it("starts a tool while the model is still streaming the rest of its response", async () => {
    let toolStartedAt = Number.NaN;
    const session = sessionWith([stampTool("Stamp", "cancel", (t) => (toolStartedAt = t), 1)]);
    server.enqueue(
      reply().tool("Stamp", {}, { id: "toolu_s1" }).text("still writing after the call", { chunks: 6 }).delay(15),
      reply().text("done"),
    );
    const events = await run(session, "go");
    const assistantAt = events.find((e) => e.type === "assistant")!.at;
    // The tool began before the loop had the whole response.
    expect(toolStartedAt).toBeLessThan(assistantAt);
    expect(events.at(-1)).toMatchObject({ type: "terminal", reason: "completed" });
  });
});

describe("progress while the model streams", () => {
  it("shows a mid-stream call's progress before the response is complete", async () => {
    const reporter = buildTool({
      name: "Reporter",
      inputSchema: z.object({}),
      prompt: async () => "Reports progress.",
      isConcurrencySafe: () => true,
      call: async (
        _args: Record<string, never>,
        _context: ToolUseContext,
        _can: unknown,
        _parent: unknown,
        onProgress?: (p: string) => void,
      ) => {
        onProgress?.("started scanning");
        return { data: "scanned" };
      },
    });
    const session = sessionWith([reporter as AnyTool]);
    server.enqueue(
      reply().tool("Reporter", {}, { id: "toolu_p1" }).text("more text after the call", { chunks: 6 }).delay(15),
      reply().text("done"),
    );
    const events = await run(session, "go");
    const progressAt = events.findIndex((e) => e.type === "tool_progress");
    const assistantAt = events.findIndex((e) => e.type === "assistant");
    expect(progressAt).toBeGreaterThanOrEqual(0);
    expect(events[progressAt]).toMatchObject({
      toolUseId: "toolu_p1",
      toolName: "Reporter",
      progress: "started scanning",
    });
    // Shown while text deltas were still arriving, not after the response ended.
    expect(progressAt).toBeLessThan(assistantAt);
    expect(events.slice(progressAt, assistantAt).some((e) => e.type === "text_delta")).toBe(true);
  });
});

describe("results while the model streams", () => {
  it("shows a finished call's result before the response is complete, once, and still sends it", async () => {
    const session = sessionWith([bigTool as AnyTool]);
    server.enqueue(
      reply()
        .tool("Big", { size: 20 }, { id: "toolu_f1" })
        .text("still writing after the call", { chunks: 6 })
        .delay(15),
      reply().text("done"),
    );
    const events = await run(session, "go");
    const shown = events.filter((e) => e.type === "tool_result");
    expect(shown).toHaveLength(1);
    expect(events.indexOf(shown[0]!)).toBeLessThan(events.findIndex((e) => e.type === "assistant"));
    expectEveryToolUsePaired(session.messages);
    expect(JSON.stringify(lastBody().messages.at(-1))).toContain("toolu_f1");
  });

  it("emits each result once by its tool_use id, whether it finished during the stream or after it", async () => {
    // Slow finishes only once the response has ended (the session said its assistant message):
    // a fixed wait raced the stream on a busy machine.
    let responseEnded!: () => void;
    const ended = new Promise<void>((resolve) => {
      responseEnded = resolve;
    });
    const slow = buildTool({
      name: "Slow",
      inputSchema: z.object({}),
      prompt: async () => "Waits for the response to end.",
      isConcurrencySafe: () => true,
      call: async () => {
        await ended;
        return { data: "Slow finished" };
      },
    });
    const session = sessionWith([bigTool as AnyTool, slow as AnyTool]);
    server.enqueue(
      reply()
        .tool("Big", { size: 20 }, { id: "toolu_early" })
        .tool("Slow", {}, { id: "toolu_late" })
        .text("still writing after the calls", { chunks: 6 })
        .delay(15),
      reply().text("done"),
    );
    const events: QueryEvent[] = [];
    for await (const event of session.submitMessage("go")) {
      events.push(event);
      if (event.type === "assistant") responseEnded();
    }
    const shown = events.flatMap((e) => (e.type === "tool_result" ? [e] : []));
    expect(shown.map((e) => e.toolUse.id)).toEqual(["toolu_early", "toolu_late"]);
    expect(shown.map((e) => e.result.tool_use_id)).toEqual(["toolu_early", "toolu_late"]);
    const assistantAt = events.findIndex((e) => e.type === "assistant");
    expect(events.indexOf(shown[0]!)).toBeLessThan(assistantAt);
    expect(events.indexOf(shown[1]!)).toBeGreaterThan(assistantAt);
    // The user message carries both, in call order, exactly once.
    expect(toolResultsIn(lastBody()).map((r) => r.tool_use_id)).toEqual(["toolu_early", "toolu_late"]);
    expectEveryToolUsePaired(session.messages);
  });
});

describe("result budgets over real requests", () => {
  it("persists over the per-tool limit and the per-message budget, and later turns resend the same bytes", async () => {
    const session = sessionWith([bigTool as AnyTool]);
    const turn1 = reply();
    // Five results of 45,000-49,000 (each under the 50,000 cap) make 235,000: over the message budget.
    for (const [i, size] of [45_000, 49_000, 47_000, 46_000, 48_000].entries())
      turn1.tool("Big", { size }, { id: `toolu_b${i}` });
    turn1.tool("Big", { size: 60_000 }, { id: "toolu_over" }); // over its own limit alone
    server.enqueue(
      turn1,
      // Turn 2's call overwrites the file the budget saved in turn 1: the decision must not move.
      reply().tool("Big", { size: 10, overwrite: "toolu_b1.txt" }, { id: "toolu_c0" }),
      reply().text("all read"),
    );
    const events = await run(session, "read everything");
    expect(events.at(-1)).toMatchObject({ type: "terminal", reason: "completed" });
    expect(requestsOfTest()).toHaveLength(3);

    const second = bodyOf(1);
    const third = bodyOf(2);
    const results = Object.fromEntries(toolResultsIn(second).map((r) => [r.tool_use_id, r.content]));
    // Per-tool limit: the 60,000 one went to disk at once.
    expect(results.toolu_over!.startsWith("<persisted-output>")).toBe(true);
    // Per-message budget: then the largest (49,000) was persisted, and that was enough.
    expect(results.toolu_b1!.startsWith("<persisted-output>")).toBe(true);
    for (const id of ["toolu_b0", "toolu_b2", "toolu_b3", "toolu_b4"]) expect(results[id]!.startsWith(id)).toBe(true);
    const total = Object.values(results).reduce((sum, text) => sum + text.length, 0);
    expect(total).toBeLessThanOrEqual(200_000);

    // Byte-for-byte: request 3 starts with everything request 2 sent.
    const prefix = JSON.stringify(withoutCacheMarkers(second.messages)).slice(0, -1);
    const next = JSON.stringify(withoutCacheMarkers(third.messages));
    expect(next.startsWith(`${prefix},`)).toBe(true);
    expect(JSON.stringify(third.system)).toBe(JSON.stringify(second.system));
    expect(JSON.stringify(third.tools)).toBe(JSON.stringify(second.tools));
    // The saved file really was changed under us, so a re-decision would have picked a new name.
    const savedPath = /Full output saved to: (.*)/.exec(results.toolu_b1!)![1]!;
    expect(await readFile(savedPath, "utf8")).toBe("changed by a later command");
  });
});

describe("interrupting a running prompt", () => {
  it("a new message while only 'cancel' tools run stops them and starts the next query with it", async () => {
    let outcome: InterruptOutcome | undefined;
    let session!: SessionEngine;
    // Sent from inside the first call, so it is certainly running (and 'cancel') at that moment.
    let sent = false;
    const sendOnce = () => {
      if (sent) return;
      sent = true;
      outcome = session.sendWhileRunning("stop, do this instead");
    };
    const cancelTool = stampTool("Slow", "cancel", sendOnce, 60_000);
    session = sessionWith([cancelTool]);
    server.enqueue(
      reply().tool("Slow", {}, { id: "toolu_c1" }).tool("Slow", {}, { id: "toolu_c2" }),
      reply().text("switching"),
    );
    const events = await run(session, "start");
    expect(outcome).toBe("interrupted");
    const terminals = events.filter((e) => e.type === "terminal");
    expect(terminals.map((t) => t.type === "terminal" && t.reason)).toEqual([
      expect.stringMatching(/^aborted_/),
      "completed",
    ]);
    expectEveryToolUsePaired(session.messages);
    const results = session.messages.flatMap((m) =>
      m.content.filter((b): b is ToolResultBlock => b.type === "tool_result"),
    );
    expect(results.every((r) => r.is_error === true)).toBe(true);
    // No interruption note: the queued message follows instead, in the next request.
    const texts = JSON.stringify(session.messages);
    expect(texts).not.toContain(INTERRUPTED_DURING_TOOLS);
    expect(texts).not.toContain(INTERRUPTED_BY_USER);
    const lastSent = lastBody().messages;
    expect(JSON.stringify(lastSent.at(-1))).toContain("stop, do this instead");
  });

  it("a new message while a 'block' tool runs waits, and joins the next request of the same query", async () => {
    let outcome: InterruptOutcome | undefined;
    let session!: SessionEngine;
    // Sent from inside the call, so the 'block' call is certainly running at that moment.
    const blockTool = stampTool(
      "Steady",
      "block",
      () => (outcome = session.sendWhileRunning("also check the tests")),
      60,
    );
    session = sessionWith([blockTool]);
    server.enqueue(reply().tool("Steady", {}, { id: "toolu_k1" }), reply().text("checked"));
    const events = await run(session, "start");
    expect(outcome).toBe("queued");
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "terminal", reason: "completed" });
    const last = JSON.stringify(lastBody().messages.at(-1));
    // The tool ran to its own result, and the message came right after it in one request.
    expect(last).toContain("Steady finished");
    expect(last).toContain("also check the tests");
    expect(last.indexOf("Steady finished")).toBeLessThan(last.indexOf("also check the tests"));
  });

  it("ESC stops a 'block' tool too, pairs it and ends with the interruption note", async () => {
    let session!: SessionEngine;
    const blockTool = stampTool("Steady", "block", () => setTimeout(() => session.abort(), 20), 60_000);
    session = sessionWith([blockTool]);
    server.enqueue(reply().tool("Steady", {}, { id: "toolu_e1" }));
    const events = await run(session, "start");
    expect(events.at(-1)).toMatchObject({ type: "terminal", reason: expect.stringMatching(/^aborted_/) });
    expectEveryToolUsePaired(session.messages);
    expect(JSON.stringify(session.messages.at(-1))).toMatch(/Request interrupted by user/);
  });

  it("a message sent while the model writes its final answer starts the next query in the same run", async () => {
    const session = sessionWith([]);
    server.enqueue(reply().text("here is the answer", { chunks: 5 }).delay(10), reply().text("and the follow-up"));
    const events: QueryEvent[] = [];
    let outcome: InterruptOutcome | undefined;
    for await (const event of session.submitMessage("question")) {
      events.push(event);
      if (event.type === "text_delta" && outcome === undefined) outcome = session.sendWhileRunning("one more thing");
    }
    // No tool was running: nothing was aborted, the message waited for the answer to finish.
    expect(outcome).toBe("queued");
    expect(events.filter((e) => e.type === "terminal").map((e) => e.type === "terminal" && e.reason)).toEqual([
      "completed",
      "completed",
    ]);
    expect(requestsOfTest()).toHaveLength(2);
    const last = JSON.stringify(lastBody().messages.at(-1));
    expect(last).toContain("one more thing");
    expect(JSON.stringify(lastBody().messages.at(-2))).toContain("here is the answer");
  });

  it("refuses a message sent when nothing runs, clearly", () => {
    const session = sessionWith([]);
    expect(() => session.sendWhileRunning("hello")).toThrow(/no prompt is running/);
  });
});
