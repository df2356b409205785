import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { maxToolUseConcurrency } from "../../src/orchestration/concurrency-limit.js";
import { isCallConcurrencySafe, partitionToolCalls } from "../../src/orchestration/partition.js";
import { resolveToolCall } from "../../src/orchestration/resolve-call.js";
import { runTools } from "../../src/orchestration/run-tools.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { allowAll, CallLog, call, collect, makeContext, resultsOf, standardTools, tempSessionDir } from "./fixtures.js";

/** Every sequence of `length` calls over S (safe) and U (unsafe). */
function allMixes(length: number): string[] {
  const mixes: string[] = [];
  for (let bits = 0; bits < 2 ** length; bits++) {
    mixes.push(Array.from({ length }, (_, i) => ((bits >> i) & 1 ? "U" : "S")).join(""));
  }
  return mixes;
}

/** The batches a mix must produce, worked out independently: runs of S together, each U alone. */
function expectedBatches(mix: string): number[][] {
  const batches: number[][] = [];
  [...mix].forEach((kind, index) => {
    const last = batches[batches.length - 1];
    if (kind === "S" && last && mix[last[0]!] === "S") last.push(index);
    else batches.push([index]);
  });
  return batches;
}

describe("partitionToolCalls", () => {
  const tools = standardTools(new CallLog());

  it.each(allMixes(4))("batches the mix %s as runs of safe calls and lone unsafe calls", (mix) => {
    const blocks = [...mix].map((kind, i) => call(kind === "S" ? "Safe" : "Unsafe", {}, `m${i}`));
    const batches = partitionToolCalls(blocks, tools);
    const asIndexes = batches.map((b) => b.blocks.map((blk) => Number(blk.id.slice(1))));
    expect(asIndexes).toEqual(expectedBatches(mix));
    for (const batch of batches) {
      expect(batch.isConcurrencySafe).toBe(mix[Number(batch.blocks[0]!.id.slice(1))] === "S");
    }
  });

  it("lets each tool judge its own parsed input (a writing call of a safe tool runs alone)", () => {
    const blocks = [call("Safe", {}), call("Safe", { writes: true }), call("Safe", {})];
    expect(partitionToolCalls(blocks, tools).map((b) => b.blocks.length)).toEqual([1, 1, 1]);
  });

  it("treats unknown tools, unparsable input and a throwing judgement as unsafe", () => {
    const throwing = buildTool({
      name: "Throws",
      inputSchema: z.object({}),
      prompt: async () => "",
      isConcurrencySafe: () => {
        throw new Error("cannot tell");
      },
      call: async () => ({ data: "" }),
    });
    const pool = [...tools, throwing];
    const judge = (name: string, input: Record<string, unknown>) =>
      isCallConcurrencySafe(resolveToolCall(call(name, input), pool));
    expect(judge("NoSuchTool", {})).toBe(false);
    expect(judge("Safe", { ms: "not a number" })).toBe(false);
    expect(judge("Throws", {})).toBe(false);
    expect(judge("Safe", {})).toBe(true);
  });
});

describe("the executor runs the batches partitionToolCalls describes", () => {
  it.each(allMixes(4))("mix %s: a batch overlaps within itself and never with its neighbours", async (mix) => {
    const log = new CallLog();
    const tools = standardTools(log);
    const context = makeContext(tools, await tempSessionDir());
    const blocks = [...mix].map((kind, i) => call(kind === "S" ? "Safe" : "Unsafe", { ms: 15 }, `x${mix}${i}`));
    const updates = await collect(runTools(blocks, undefined, context, allowAll));
    expect(resultsOf(updates).map((r) => r.tool_use_id)).toEqual(blocks.map((b) => b.id));

    const batches = partitionToolCalls(blocks, tools);
    for (const [k, batch] of batches.entries()) {
      const records = batch.blocks.map((b) => log.get(b.id));
      // Within a batch: every call started before any of them ended.
      expect(Math.max(...records.map((r) => r.start))).toBeLessThan(Math.min(...records.map((r) => r.end!)));
      const next = batches[k + 1];
      if (next) {
        const lastEnd = Math.max(...records.map((r) => r.end!));
        const nextStart = Math.min(...next.blocks.map((b) => log.get(b.id).start));
        expect(lastEnd).toBeLessThanOrEqual(nextStart);
      }
    }
  });
});

describe("WARDEN_MAX_TOOL_USE_CONCURRENCY", () => {
  const saved = process.env.WARDEN_MAX_TOOL_USE_CONCURRENCY;
  afterEach(() => {
    if (saved === undefined) delete process.env.WARDEN_MAX_TOOL_USE_CONCURRENCY;
    else process.env.WARDEN_MAX_TOOL_USE_CONCURRENCY = saved;
  });

  it("defaults to 10 and falls back to 10 for nonsense", () => {
    expect(maxToolUseConcurrency({})).toBe(10);
    expect(maxToolUseConcurrency({ WARDEN_MAX_TOOL_USE_CONCURRENCY: "3" })).toBe(3);
    for (const bad of ["0", "-2", "2.5", "many", " "]) {
      expect(maxToolUseConcurrency({ WARDEN_MAX_TOOL_USE_CONCURRENCY: bad })).toBe(10);
    }
  });

  it("never runs more safe calls at once than the limit", async () => {
    process.env.WARDEN_MAX_TOOL_USE_CONCURRENCY = "3";
    const log = new CallLog();
    const tools = standardTools(log);
    const context = makeContext(tools, await tempSessionDir());
    const blocks = Array.from({ length: 7 }, (_, i) => call("Safe", { ms: 10 }, `lim${i}`));
    await collect(runTools(blocks, undefined, context, allowAll));
    const records = blocks.map((b) => log.get(b.id));
    let peak = 0;
    for (const r of records) {
      const runningAtStart = records.filter((o) => o.start <= r.start && o.end! > r.start).length;
      peak = Math.max(peak, runningAtStart);
    }
    expect(peak).toBe(3);
  });
});
