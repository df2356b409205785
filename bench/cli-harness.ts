// What the benches that spawn the BUILT CLI share: a private copy of dist/ to measure, a timed
// spawn with peak RSS (from the bench's process or from a small launcher), and the median and
// range of a series.
import { type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(fileURLToPath(new URL("..", import.meta.url)));
const hasGnuTime = existsSync("/usr/bin/time");

/**
 * Builds dist/ when missing, then copies it (or `source`, another build's dist/) and returns the
 * copy's CLI entry. The copy is what a bench measures: other work may rebuild dist/ while it runs.
 * It sits under node_modules/ so that the external packages still resolve from it.
 */
export function snapshotBuiltCli(name: string, source?: string): { cli: string; dir: string } {
  if (!source && !existsSync(join(repoRoot, "dist/cli.js"))) {
    const build = spawnSync(process.execPath, ["scripts/build.mjs", "--no-types"], { cwd: repoRoot, stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
  // The process's own folder: two benches at once (two worktrees share node_modules) each keep theirs.
  const dir = join(repoRoot, "node_modules/.cache", `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source ? resolve(source) : join(repoRoot, "dist"), join(dir, "dist"), { recursive: true });
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return { cli: join(dir, "dist/cli.js"), dir };
}

export interface ProcessRun {
  /** performance.now() of this process just before the spawn. */
  spawnedAt: number;
  /** Spawn to exit. */
  wallMs: number;
  /** Peak RSS in MB (from /usr/bin/time), NaN when it could not be measured. */
  peakRssMb: number;
  /** User + system CPU time in ms (from /usr/bin/time): less sensitive to machine load than wall time. */
  cpuMs: number;
  stderr: string;
  code: number | null;
}

/** What a spawn reports before its timing is read: the parent's clock and the child's exit. */
interface RawRun {
  spawnedAt: number;
  wallMs: number;
  stderr: string;
  code: number | null;
}

/** Reads GNU time's line (peak RSS and CPU) out of a finished run's stderr. */
function withResources(raw: RawRun): ProcessRun {
  const rss = /WARDEN_BENCH_RSS_KB=(\d+) CPU=([\d.]+)\+([\d.]+)/.exec(raw.stderr);
  const peakRssMb = rss ? Number(rss[1]) / 1024 : Number.NaN;
  const cpuMs = rss ? (Number(rss[2]) + Number(rss[3])) * 1000 : Number.NaN;
  return { ...raw, peakRssMb, cpuMs };
}

/** `node ARGS...` wrapped in GNU time when it is installed: what runNode and the launcher spawn. */
function nodeCommand(args: string[]): { command: string; argv: string[] } {
  if (!hasGnuTime) return { command: process.execPath, argv: args };
  return { command: "/usr/bin/time", argv: ["-f", "WARDEN_BENCH_RSS_KB=%M CPU=%U+%S", process.execPath, ...args] };
}

/**
 * Runs `node ARGS...` as a user's shell would (no warm process, nothing preloaded), timing it from
 * spawn to exit, with peak RSS and CPU time through GNU time when it is installed. GNU time wraps
 * the floor (`node -e 0`) the same way, so its small cost is in both sides of a ratio.
 * This spawns from the bench's own (large) process; SpawnLauncher spawns from a small one.
 */
export function runNode(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ProcessRun> {
  const { command, argv } = nodeCommand(args);
  const spawnedAt = performance.now();
  const child = spawn(command, argv, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolveRun, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      resolveRun(withResources({ spawnedAt, wallMs: performance.now() - spawnedAt, stderr, code }));
    });
  });
}

/** How much to add to process.hrtime() in ms to get this process's performance.now(). */
function hrtimeToPerformanceNow(): number {
  return performance.now() - Number(process.hrtime.bigint()) / 1e6;
}

interface LauncherReport {
  id: number;
  spawnedAtMs: number;
  wallMs: number;
  stderr: string;
  code: number | null;
}

/**
 * A small dedicated Node parent (bench/fixtures/spawn-launcher.mjs) that spawns and times the
 * processes a bench measures, as a shell would start them: a fork and exec from the bench's own,
 * much larger process costs more on this VM and slows a floor like `node -e 0` more than the
 * CLI, which flattered every ratio over it. Its reports use the machine's monotonic clock, turned
 * here into this process's performance.now(), so a run lines up with what a proxy saw.
 */
export class SpawnLauncher {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly waiting = new Map<number, (report: LauncherReport) => void>();
  private nextId = 0;
  private readonly offset = hrtimeToPerformanceNow();

  constructor() {
    this.child = spawn(process.execPath, [join(repoRoot, "bench/fixtures/spawn-launcher.mjs")], {
      stdio: ["pipe", "pipe", "inherit"],
      // Nothing of the bench's own Node options (a TypeScript loader): the launcher stays bare.
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const report = JSON.parse(line) as LauncherReport;
      this.waiting.get(report.id)?.(report);
      this.waiting.delete(report.id);
    });
  }

  /** Like runNode, but spawned and timed by the launcher. */
  runNode(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ProcessRun> {
    const id = this.nextId++;
    const { command, argv } = nodeCommand(args);
    return new Promise((resolveRun, reject) => {
      this.waiting.set(id, (report) => {
        if (Number.isNaN(report.wallMs)) {
          reject(new Error(`the launcher could not spawn ${command}: ${report.stderr}`));
          return;
        }
        const spawnedAt = report.spawnedAtMs + this.offset;
        resolveRun(withResources({ spawnedAt, wallMs: report.wallMs, stderr: report.stderr, code: report.code }));
      });
      this.child.stdin.write(`${JSON.stringify({ id, command, args: argv, env, cwd })}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** "min-max" of a series, rounded to `digits`. */
export function range(values: readonly number[], digits = 0): string {
  return `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
}
