// Issue 13's benchmark: a 1,000-turn session whose every turn brings a 50 KB tool result, on the
// built library with a scripted in-process model (bench/fixtures/context-session.mjs) and a real
// model table entry (claude-sonnet-4-5: 200,000 tokens). The window fills every dozen turns or so;
// microcompact, snip and autocompaction keep the session going. Measured: peak RSS of the whole
// process (GNU time), the loop's own time per turn (model excluded), and the time of an
// autocompaction besides the model's summary call.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchRow } from "./run.js";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const child = join(root, "bench/fixtures/context-session.mjs");
const TURNS = 1_000;
const RESULT_CHARS = 50_000;

interface Figures {
  turns: number;
  boundaries: number;
  overheadMedianMs: number;
  overheadP95Ms: number;
  overheadCpuMedianMs: number;
  compactionMedianMs: number;
  compactionMaxMs: number;
  rssMb: number[];
  liveHeapMb: number[];
}

function runSession(): Promise<{ figures: Figures; peakRssMb: number }> {
  const hasTime = existsSync("/usr/bin/time");
  const args = ["--expose-gc", child, join(root, "dist/index.js"), String(TURNS), String(RESULT_CHARS)];
  const proc = hasTime
    ? spawn("/usr/bin/time", ["-f", "WARDEN_BENCH_RSS_KB=%M", process.execPath, ...args])
    : spawn(process.execPath, args);
  let stdout = "";
  let stderr = "";
  proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  proc.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolveRun, reject) => {
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code !== 0) return reject(new Error(`context session failed (exit ${code}): ${stderr}`));
      const rss = /WARDEN_BENCH_RSS_KB=(\d+)/.exec(stderr);
      resolveRun({
        figures: JSON.parse(stdout.trim().split("\n").at(-1) as string) as Figures,
        peakRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
      });
    });
  });
}

export default async function contextBench(): Promise<BenchRow[]> {
  if (!existsSync(join(root, "dist/index.js"))) {
    const build = spawnSync(process.execPath, ["scripts/build.mjs", "--no-types"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
  const { figures, peakRssMb } = await runSession();
  const rss = figures.rssMb;
  return [
    {
      name: `${TURNS} turns x ${RESULT_CHARS / 1000} KB results: turns completed`,
      value: figures.turns,
      unit: "turns",
    },
    { name: "autocompactions in the session", value: figures.boundaries, unit: "" },
    { name: "peak RSS of the whole session", value: peakRssMb, unit: "MB", target: "<= 120, flat" },
    {
      name: "RSS at turn 1,000 (every 100 turns in the note)",
      value: rss.at(-1) ?? Number.NaN,
      unit: "MB",
      note: rss.join(", "),
    },
    {
      name: "live heap after a full GC, turn 1,000 (every 100 in note)",
      value: figures.liveHeapMb.at(-1) ?? Number.NaN,
      unit: "MB",
      note: figures.liveHeapMb.join(", "),
    },
    {
      name: "loop overhead per turn, model excluded: median",
      value: figures.overheadMedianMs,
      unit: "ms",
      target: "<= 1",
    },
    { name: "loop overhead per turn, model excluded: p95", value: figures.overheadP95Ms, unit: "ms" },
    {
      name: "loop overhead per turn, model excluded: CPU median",
      value: figures.overheadCpuMedianMs,
      unit: "ms",
      note: "process CPU time: steadier than wall time on a busy machine",
    },
    {
      name: "autocompaction besides the model's call: median",
      value: figures.compactionMedianMs ?? Number.NaN,
      unit: "ms",
      target: "<= 50",
    },
    { name: "autocompaction besides the model's call: worst", value: figures.compactionMaxMs, unit: "ms" },
  ];
}
