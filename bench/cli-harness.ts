// What the benches that spawn the BUILT CLI share: a private copy of dist/ to measure, a timed
// spawn with peak RSS, and the median and range of a series.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
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
  const dir = join(repoRoot, "node_modules/.cache", name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source ? resolve(source) : join(repoRoot, "dist"), join(dir, "dist"), { recursive: true });
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

/**
 * Runs `node ARGS...` as a user's shell would (no warm process, nothing preloaded), timing it from
 * spawn to exit, with peak RSS and CPU time through GNU time when it is installed. GNU time wraps
 * the floor (`node -e 0`) the same way, so its small cost is in both sides of a ratio.
 */
export function runNode(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ProcessRun> {
  const command = hasGnuTime ? "/usr/bin/time" : process.execPath;
  const argv = hasGnuTime ? ["-f", "WARDEN_BENCH_RSS_KB=%M CPU=%U+%S", process.execPath, ...args] : args;
  const spawnedAt = performance.now();
  const child = spawn(command, argv, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolveRun, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - spawnedAt;
      const rss = /WARDEN_BENCH_RSS_KB=(\d+) CPU=([\d.]+)\+([\d.]+)/.exec(stderr);
      const peakRssMb = rss ? Number(rss[1]) / 1024 : Number.NaN;
      const cpuMs = rss ? (Number(rss[2]) + Number(rss[3])) * 1000 : Number.NaN;
      resolveRun({ spawnedAt, wallMs, peakRssMb, cpuMs, stderr, code });
    });
  });
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
