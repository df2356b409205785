import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runTools } from "../../src/orchestration/run-tools.js";
import { StreamingToolExecutor, type ToolExecutionUpdate } from "../../src/orchestration/streaming-executor.js";
import { buildTool } from "../../src/tool/build-tool.js";
import type { AnyTool, ToolUseContext } from "../../src/tool/types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import {
  allowAll,
  CallLog,
  call,
  collect,
  makeContext,
  resultsOf,
  sleepTool,
  standardTools,
  tempSessionDir,
  textOfResult,
} from "./fixtures.js";

async function setup(extra: AnyTool[] = []) {
  const log = new CallLog();
  const tools = [...standardTools(log), ...extra];
  const context = makeContext(tools, await tempSessionDir());
  return { log, tools, context };
}

describe("concurrent execution", () => {
  it("runs 8 safe calls overlapping in time", async () => {
    const { log, context } = await setup();
    const blocks = Array.from({ length: 8 }, (_, i) => call("Safe", { ms: 30 }, `ov${i}`));
    await collect(runTools(blocks, undefined, context, allowAll));
    const records = blocks.map((b) => log.get(b.id));
    const lastStart = Math.max(...records.map((r) => r.start));
    const firstEnd = Math.min(...records.map((r) => r.end!));
    // All eight had started before the first one finished.
    expect(lastStart).toBeLessThan(firstEnd);
  });

  it("keeps call order when later calls finish first", async () => {
    const { log, context } = await setup();
    const blocks = [60, 40, 20, 1].map((ms, i) => call("Safe", { ms }, `ord${i}`));
    const updates = await collect(runTools(blocks, undefined, context, allowAll));
    // They really finished in reverse...
    const ends = blocks.map((b) => log.get(b.id).end!);
    expect(ends[3]!).toBeLessThan(ends[0]!);
    // ...yet the results come out in call order.
    expect(resultsOf(updates).map((r) => r.tool_use_id)).toEqual(["ord0", "ord1", "ord2", "ord3"]);
    expect(resultsOf(updates).map(textOfResult)).toEqual(["done ord0", "done ord1", "done ord2", "done ord3"]);
  });

  it("yields progress at once, ahead of earlier calls' results", async () => {
    const reporter = buildTool({
      name: "Reporter",
      inputSchema: z.object({}),
      prompt: async () => "",
      isConcurrencySafe: () => true,
      call: async (_args, _context, _can, _parent, onProgress?: (p: string) => void) => {
        onProgress?.("halfway");
        return { data: "reported" };
      },
    });
    const { context } = await setup([reporter]);
    const updates = await collect(
      runTools([call("Safe", { ms: 40 }, "slow"), call("Reporter", {}, "rep")], undefined, context, allowAll),
    );
    const kinds = updates.map((u) => `${u.type}:${u.toolUseId}`);
    expect(kinds).toEqual(["progress:rep", "result:slow", "result:rep"]);
  });

  it("applies contextModifiers of a concurrent batch after the batch, in call order, and of a serial call at once", async () => {
    const seen: Record<string, string> = {};
    const stamp = (name: string, safe: boolean) =>
      buildTool({
        name,
        inputSchema: z.object({ tag: z.string(), ms: z.number().default(0) }),
        prompt: async () => "",
        isConcurrencySafe: () => safe,
        call: async (args: { tag: string; ms: number }, context: ToolUseContext) => {
          seen[args.tag] = context.options.model;
          await new Promise((r) => setTimeout(r, args.ms));
          return {
            data: args.tag,
            contextModifier: (c: ToolUseContext) => ({
              ...c,
              options: { ...c.options, model: `${c.options.model}>${args.tag}` },
            }),
          };
        },
      });
    const { context } = await setup([stamp("StampSafe", true), stamp("StampUnsafe", false)]);
    const blocks = [
      call("StampSafe", { tag: "a", ms: 30 }),
      call("StampSafe", { tag: "b", ms: 1 }),
      call("StampUnsafe", { tag: "c" }),
      call("StampUnsafe", { tag: "d" }),
      call("StampSafe", { tag: "e" }),
    ];
    const generator = runTools(blocks, undefined, context, allowAll);
    let step = await generator.next();
    while (!step.done) step = await generator.next();
    // a and b ran together and saw neither's change; c saw both, in call order although b finished first.
    expect(seen).toEqual({
      a: "replay:test",
      b: "replay:test",
      c: "replay:test>a>b",
      d: "replay:test>a>b>c",
      e: "replay:test>a>b>c>d",
    });
    expect(step.value.options.model).toBe("replay:test>a>b>c>d>e");
  });
});

/**
 * A tool like Bash: until `load()` is called it cannot judge its input and says "unsafe" (fail
 * closed); whenReady hands out the loading until then.
 */
function lazilyJudgingTool(log: CallLog, name = "Lazy") {
  let loaded = false;
  let finishLoading: () => void = () => {};
  const loading = new Promise<void>((resolve) => {
    finishLoading = () => {
      loaded = true;
      resolve();
    };
  });
  const tool = buildTool({
    name,
    inputSchema: z.object({ ms: z.number() }),
    prompt: async () => "",
    whenReady: () => (loaded ? undefined : loading),
    isConcurrencySafe: () => loaded,
    call: async (input: { ms: number }, context: ToolUseContext) => {
      const id = context.toolUseId ?? "?";
      log.started(id);
      await new Promise((resolve) => setTimeout(resolve, input.ms));
      log.ended(id);
      return { data: `done ${id}` };
    },
  }) as AnyTool;
  return { tool, load: () => finishLoading() };
}

describe("a tool that is still loading what its judgement needs (whenReady)", () => {
  it("is waited for before its calls are judged, so they run together once it is ready", async () => {
    const log = new CallLog();
    const lazy = lazilyJudgingTool(log);
    const context = makeContext([lazy.tool, ...standardTools(log)], await tempSessionDir());
    const executor = new StreamingToolExecutor({ context, canUseTool: allowAll });
    const blocks = [
      call("Lazy", { ms: 40 }, "l1"),
      call("Lazy", { ms: 40 }, "l2"),
      call("Lazy", { ms: 40 }, "l3"),
      call("Safe", { ms: 1 }, "after"),
    ];
    for (const block of blocks) executor.addTool(block);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Nothing starts before the tool can judge, not even the call after it (no overtaking).
    expect(log.records.size).toBe(0);
    lazy.load();
    const results = resultsOf(await collect(executor.getRemainingResults()));
    expect(results.map((r) => r.tool_use_id)).toEqual(blocks.map((b) => b.id));
    const lazyRecords = ["l1", "l2", "l3"].map((id) => log.get(id));
    // Judged when ready: concurrency-safe, so all three overlapped.
    expect(Math.max(...lazyRecords.map((r) => r.start))).toBeLessThan(Math.min(...lazyRecords.map((r) => r.end!)));
  });

  it("judges anyway (failing closed) when the loading fails", async () => {
    const log = new CallLog();
    const failing = buildTool({
      name: "Broken",
      inputSchema: z.object({}),
      prompt: async () => "",
      whenReady: () => Promise.reject(new Error("grammar missing")),
      call: async (_input: Record<string, never>, context: ToolUseContext) => {
        log.started(context.toolUseId ?? "?");
        return { data: "ran" };
      },
    }) as AnyTool;
    const context = makeContext([failing], await tempSessionDir());
    const results = resultsOf(
      await collect(runTools([call("Broken", {}, "b1"), call("Broken", {}, "b2")], undefined, context, allowAll)),
    );
    expect(results.map(textOfResult)).toEqual(["ran", "ran"]);
  });

  it("settles a waiting call when the turn is aborted before the tool is ready", async () => {
    const log = new CallLog();
    const lazy = lazilyJudgingTool(log);
    const queryController = new AbortController();
    const context = makeContext([lazy.tool], await tempSessionDir(), queryController);
    const executor = new StreamingToolExecutor({ context, canUseTool: allowAll });
    executor.addTool(call("Lazy", { ms: 1 }, "waiting"));
    queryController.abort();
    const results = resultsOf(await collect(executor.getRemainingResults()));
    expect(textOfResult(results[0]!)).toBe("Interrupted by the user: the tool call was not run.");
    lazy.load();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log.has("waiting")).toBe(false);
  });
});

describe("one resolution per call", () => {
  it("parses each call's input once, for both the concurrency judgement and the run", async () => {
    let parses = 0;
    const judged: unknown[] = [];
    const ran: unknown[] = [];
    const counted = buildTool({
      name: "Counted",
      inputSchema: z.object({ n: z.number() }).transform((input) => {
        parses++;
        return { ...input, parsedAs: parses };
      }),
      prompt: async () => "",
      isConcurrencySafe: (input: { n: number; parsedAs: number }) => {
        judged.push(input);
        return true;
      },
      call: async (input: { n: number; parsedAs: number }) => {
        ran.push(input);
        return { data: `ran ${input.n}` };
      },
    }) as AnyTool;
    const { context } = await setup([counted]);
    const blocks = [call("Counted", { n: 1 }, "c1"), call("Counted", { n: 2 }, "c2")];
    const results = resultsOf(await collect(runTools(blocks, undefined, context, allowAll)));
    expect(results.map(textOfResult)).toEqual(["ran 1", "ran 2"]);
    expect(parses).toBe(2);
    // The tool judged and ran the very objects one parse produced.
    expect(ran).toEqual(judged);
    expect(ran[0]).toBe(judged[0]);
    expect(ran[1]).toBe(judged[1]);
  });
});

describe("sibling errors", () => {
  it("a failing call of a sibling-cancelling tool (the Bash stand-in) cancels its running and queued siblings", async () => {
    const { log, context } = await setup();
    const blocks = [
      call("Safe", { ms: 5 }, "done-before"),
      call("Bash", { ms: 10, fail: true }, "bash-fails"),
      call("Safe", { ms: 500 }, "running-sibling"),
      call("Unsafe", { ms: 1 }, "queued-sibling"),
    ];
    const results = resultsOf(await collect(runTools(blocks, undefined, context, allowAll)));
    expect(results.map((r) => r.tool_use_id)).toEqual(blocks.map((b) => b.id));
    expect(results[0]).toMatchObject({ content: "done done-before" });
    expect(results[0]!.is_error).toBeUndefined();
    expect(results[1]!.is_error).toBe(true);
    expect(textOfResult(results[1]!)).toContain("failed on purpose");
    expect(results[2]!.is_error).toBe(true);
    expect(textOfResult(results[2]!)).toMatch(
      /^Cancelled: parallel tool call Bash\(.*\) errored, so this call was stopped/,
    );
    expect(log.get("running-sibling").aborted).toBe(true);
    expect(textOfResult(results[3]!)).toMatch(/errored, so this call was not run/);
    expect(log.has("queued-sibling")).toBe(false);
  });

  it("a failing Read call does not touch its siblings", async () => {
    const { log, context } = await setup();
    const blocks = [
      call("Read", { ms: 5, fail: true }, "read-fails"),
      call("Safe", { ms: 30 }, "sib1"),
      call("Unsafe", { ms: 1 }, "sib2"),
    ];
    const results = resultsOf(await collect(runTools(blocks, undefined, context, allowAll)));
    expect(results[0]!.is_error).toBe(true);
    expect(results[1]).toMatchObject({ content: "done sib1" });
    expect(results[2]).toMatchObject({ content: "done sib2" });
    expect(log.get("sib1").aborted).toBe(false);
  });

  it("the tool's cancelsSiblingsOnError trait decides, not its name", async () => {
    const log = new CallLog();
    const tools = [
      sleepTool(log, { name: "Bash", safe: true }),
      sleepTool(log, { name: "Make", safe: true, cancelsSiblingsOnError: true }),
      ...standardTools(log).filter((t) => t.name === "Safe"),
    ];
    const context = makeContext(tools, await tempSessionDir());
    const quiet = resultsOf(
      await collect(
        runTools(
          [call("Bash", { ms: 5, fail: true }, "b"), call("Safe", { ms: 30 }, "s1")],
          undefined,
          context,
          allowAll,
        ),
      ),
    );
    expect(quiet[1]).toMatchObject({ content: "done s1" });
    expect(log.get("s1").aborted).toBe(false);

    const cancelling = resultsOf(
      await collect(
        runTools(
          [call("Make", { ms: 5, fail: true }, "m"), call("Safe", { ms: 500 }, "s2")],
          undefined,
          context,
          allowAll,
        ),
      ),
    );
    expect(textOfResult(cancelling[1]!)).toMatch(/^Cancelled: parallel tool call Make\(.*\) errored/);
    expect(log.get("s2").aborted).toBe(true);
  });
});

describe("sibling errors with the real Bash tool", () => {
  it("a command that exits non-zero cancels the calls queued after it", async () => {
    const log = new CallLog();
    const tools = [...standardTools(log).filter((t) => t.name !== "Bash"), BashTool as AnyTool];
    const context = makeContext(tools, await tempSessionDir());
    const blocks = [
      call("Bash", { command: "echo preparing; exit 3", description: "fail on purpose" }, "real-bash"),
      call("Safe", { ms: 1 }, "after-bash"),
    ];
    const results = resultsOf(await collect(runTools(blocks, undefined, context, allowAll)));
    expect(results[0]!.is_error).toBe(true);
    expect(textOfResult(results[0]!)).toContain("preparing");
    expect(textOfResult(results[1]!)).toMatch(/^Cancelled: parallel tool call Bash\(echo preparing; exit 3\) errored/);
    expect(log.has("after-bash")).toBe(false);
  });

  it("a command that succeeds lets the rest run", async () => {
    const log = new CallLog();
    const tools = [...standardTools(log).filter((t) => t.name !== "Bash"), BashTool as AnyTool];
    const context = makeContext(tools, await tempSessionDir());
    const blocks = [
      call("Bash", { command: "echo fine", description: "succeed" }, "ok-bash"),
      call("Safe", { ms: 1 }, "after-ok"),
    ];
    const results = resultsOf(await collect(runTools(blocks, undefined, context, allowAll)));
    expect(results[0]!.is_error).toBeUndefined();
    expect(results[1]).toMatchObject({ content: "done after-ok" });
  });
});

describe("streaming", () => {
  it("starts a call as soon as its block is added, before the response is complete", async () => {
    const { log, context } = await setup();
    const executor = new StreamingToolExecutor({ context, canUseTool: allowAll });
    executor.addTool(call("Safe", { ms: 20 }, "early"));
    // The rest of the "stream" has not arrived; the first call is already running.
    await new Promise((r) => setTimeout(r, 5));
    expect(log.has("early")).toBe(true);
    executor.addTool(call("Safe", { ms: 1 }, "late"));
    const updates = await collect(executor.getRemainingResults());
    expect(resultsOf(updates).map((r) => r.tool_use_id)).toEqual(["early", "late"]);
    expect(log.get("late").start).toBeLessThan(log.get("early").end!);
  });

  it("getCompletedResults hands out the finished prefix without waiting", async () => {
    const { context, log } = await setup();
    const executor = new StreamingToolExecutor({ context, canUseTool: allowAll });
    executor.addTool(call("Safe", { ms: 1 }, "fast"));
    executor.addTool(call("Safe", { ms: 5_000 }, "slow"));
    while (log.records.get("fast")?.end === undefined) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 2));
    // hasCompletedResults says so without making anything (the loop asks after every stream event).
    expect(executor.hasCompletedResults()).toBe(true);
    const ready: ToolExecutionUpdate[] = [...executor.getCompletedResults()];
    expect(ready.map((u) => u.toolUseId)).toEqual(["fast"]);
    // Nothing more is ready while "slow" runs.
    expect(executor.hasCompletedResults()).toBe(false);
    expect([...executor.getCompletedResults()]).toEqual([]);
    executor.abort("user_cancel");
    const rest = await collect(executor.getRemainingResults());
    expect(rest.map((u) => u.toolUseId)).toEqual(["slow"]);
  });

  it("an unsafe call added while safe ones run waits for them, and blocks later safe ones", async () => {
    const { log, context } = await setup();
    const executor = new StreamingToolExecutor({ context, canUseTool: allowAll });
    executor.addTool(call("Safe", { ms: 20 }, "s1"));
    executor.addTool(call("Unsafe", { ms: 20 }, "u"));
    executor.addTool(call("Safe", { ms: 5 }, "s2"));
    await collect(executor.getRemainingResults());
    expect(log.get("s1").end!).toBeLessThanOrEqual(log.get("u").start);
    expect(log.get("u").end!).toBeLessThanOrEqual(log.get("s2").start);
  });

  it("gives unknown tools and bad input an error result in their place", async () => {
    const { context } = await setup();
    const blocks = [call("Nope", {}, "unknown"), call("Safe", { ms: "x" }, "bad"), call("Safe", {}, "good")];
    const results = resultsOf(await collect(runTools(blocks, undefined, context, allowAll)));
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ["unknown", true],
      ["bad", true],
      ["good", false],
    ]);
    expect(textOfResult(results[1]!)).toContain("ms");
  });
});
