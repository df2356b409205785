// Orchestration benchmarks, in process: how much the concurrent executor buys on a realistic
// read-heavy turn, and what it costs per call. The "seen from outside" figures (through a real
// provider against the scripted model server) live in orchestration-wire.bench.ts.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { z } from "zod";
import type { ToolUseBlock } from "../src/messages/types.js";
import { runTools } from "../src/orchestration/run-tools.js";
import { buildTool } from "../src/tool/build-tool.js";
import { createToolUseContext } from "../src/tool/context.js";
import { emptyPermissionContext } from "../src/tool/permission-types.js";
import type { AnyTool, CanUseTool, ToolUseContext } from "../src/tool/types.js";
import { builtInTools } from "../src/tools/registry.js";
import type { BenchRow } from "./run.js";

const allowAll: CanUseTool = async () => ({ behavior: "allow" });

function contextFor(tools: AnyTool[], dir: string): ToolUseContext {
  return createToolUseContext({
    options: { tools, model: "bench:x", cwd: dir, sessionId: "bench", sessionDir: dir, isNonInteractive: true },
    appState: { toolPermissionContext: emptyPermissionContext(dir) },
  });
}

async function drain(blocks: ToolUseBlock[], context: ToolUseContext, maxConcurrency?: number): Promise<number> {
  const started = performance.now();
  let errors = 0;
  for await (const update of runTools(blocks, undefined, context, allowAll, maxConcurrency)) {
    if (update.type === "result" && update.outcome.result.is_error) errors++;
  }
  if (errors > 0) throw new Error(`${errors} of ${blocks.length} calls failed; the figure would be meaningless`);
  return performance.now() - started;
}

// Stand-ins used only while the real Read/Grep tools are not in the registry yet.
const standInRead = buildTool({
  name: "Read",
  inputSchema: z.object({ file_path: z.string(), offset: z.number().optional(), limit: z.number().optional() }),
  maxResultSizeChars: Number.POSITIVE_INFINITY,
  prompt: async () => "",
  isConcurrencySafe: () => true,
  call: async (args: { file_path: string }) => ({ data: (await readFile(args.file_path, "utf8")).slice(0, 100_000) }),
});
const standInGrep = buildTool({
  name: "Grep",
  inputSchema: z.object({ pattern: z.string(), path: z.string(), output_mode: z.string().optional() }),
  maxResultSizeChars: 20_000,
  prompt: async () => "",
  isConcurrencySafe: () => true,
  call: async (args: { pattern: string; path: string }) => {
    const { rgPath } = await import("@vscode/ripgrep");
    const { stdout } = await promisify(execFile)(rgPath, ["-c", args.pattern, args.path], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return { data: stdout };
  },
});

function realOrStandIn(name: string, standIn: AnyTool): { tool: AnyTool; real: boolean } {
  const real = builtInTools().find((t) => t.name === name);
  return real ? { tool: real, real: true } : { tool: standIn, real: false };
}

async function readsAndGreps(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), "warden-bench-orch-"));
  try {
    const line = `${"const value = compute(input) + offset; // filler text for the benchmark ".padEnd(79, ".")}\n`;
    const files: string[] = [];
    for (let i = 0; i < 8; i++) {
      const file = join(dir, `big-${i}.ts`);
      await writeFile(file, line.repeat(Math.ceil(1_048_576 / line.length)).slice(0, 1_048_576));
      files.push(file);
    }
    const read = realOrStandIn("Read", standInRead);
    const grep = realOrStandIn("Grep", standInGrep);
    // A fresh context per run: the real Read answers a repeated read of an unchanged file with a
    // short stub, which would make every run after the first measure nothing.
    const tools = [read.tool, grep.tool];
    const blocks = (tag: string): ToolUseBlock[] => [
      // 1,000 lines of 80 characters: the real Read refuses whole reads above 256 KB.
      ...files.map((file, i) => ({
        type: "tool_use" as const,
        id: `r${tag}${i}`,
        name: "Read",
        input: { file_path: file, offset: 1 + i * 1000, limit: 1000 },
      })),
      ...files.map((file, i) => ({
        type: "tool_use" as const,
        id: `g${tag}${i}`,
        name: "Grep",
        input: { pattern: `compute\\(input\\) \\+ offset; // filler ${i}?`, path: file, output_mode: "count" },
      })),
    ];
    // Warm up both paths (module loading, rg in the page cache) before measuring.
    await drain(blocks("w"), contextFor(tools, dir), 1);
    await drain(blocks("w2"), contextFor(tools, dir));
    const runs = 5;
    let serial = 0;
    let concurrent = 0;
    for (let run = 0; run < runs; run++) {
      serial += await drain(blocks(`s${run}`), contextFor(tools, dir), 1);
      concurrent += await drain(blocks(`c${run}`), contextFor(tools, dir));
    }
    serial /= runs;
    concurrent /= runs;
    const note =
      read.real && grep.real
        ? "real Read (1,000-line windows: it refuses whole files over 256 KB) and Grep (rg per call)"
        : `stand-ins: Read ${read.real ? "real" : "readFile"}, Grep ${grep.real ? "real" : "rg -c"}`;
    return [
      { name: "8 reads of 1 MB files + 8 greps: serial wall time", value: serial, unit: "ms", note },
      { name: "8 reads of 1 MB files + 8 greps: concurrent wall time", value: concurrent, unit: "ms", note },
      { name: "8 reads + 8 greps: serial / concurrent", value: serial / concurrent, unit: "x" },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function overheadPerCall(): Promise<BenchRow[]> {
  const trivial = buildTool({
    name: "Trivial",
    inputSchema: z.object({ n: z.number() }),
    prompt: async () => "",
    isConcurrencySafe: () => true,
    call: async (args: { n: number }) => ({ data: `ok ${args.n}` }),
  });
  const dir = await mkdtemp(join(tmpdir(), "warden-bench-orch-"));
  try {
    const context = contextFor([trivial], dir);
    const calls = 1_000;
    const blocks = (tag: string): ToolUseBlock[] =>
      Array.from({ length: calls }, (_, n) => ({
        type: "tool_use" as const,
        id: `t${tag}${n}`,
        name: "Trivial",
        input: { n },
      }));
    for (let warm = 0; warm < 3; warm++) await drain(blocks(`w${warm}`), context);
    // The tool's own cost, called directly (best of 5 too), so the figure below is what
    // orchestration adds.
    let direct = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run++) {
      const directStart = performance.now();
      for (let n = 0; n < calls; n++) {
        const output = await trivial.call({ n }, context, allowAll, undefined);
        trivial.mapToolResult(output.data, `d${n}`);
      }
      direct = Math.min(direct, performance.now() - directStart);
    }
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run++) best = Math.min(best, await drain(blocks(`m${run}`), context));
    return [
      {
        name: "orchestration overhead per call (1,000 trivial calls)",
        value: (best - direct) / calls,
        unit: "ms",
        target: "<= 0.2",
        note: `one turn, best of 5; ${(best / calls).toFixed(4)} ms/call in all, tool itself ${(direct / calls).toFixed(4)}`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export default async function orchestrationBench(): Promise<BenchRow[]> {
  return [...(await readsAndGreps()), ...(await overheadPerCall())];
}
