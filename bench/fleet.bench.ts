// Issue 17's benchmark, with a real redis-server and the built CLI:
// - jobs per minute with the replay provider for 1, 2 and 4 worker processes (concurrency 1
//   each): 16 one-turn jobs, from submit to the last one finished;
// - the overhead of a fleet job over the same session run locally (target <= 50 ms per job): the
//   worker's time on a job (BullMQ's processedOn to finishedOn: clone, spawn, mirroring into
//   Redis, the patch, recording the result) minus the wall time of `warden -p` on the same script
//   in a clone; medians of 8, one job at a time. The queue's hand-over (submit to processedOn) is
//   reported beside it.
// Run alone: `node --import tsx bench/run.ts fleet` (after `npm run build`).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { redisServerBinary, startTestRedis } from "../test/helpers/redis-server.js";
import type { BenchRow } from "./run.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin/warden.js");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export default async function fleetBench(): Promise<BenchRow[]> {
  const binary = redisServerBinary();
  if (!binary) {
    process.stdout.write("  skipped: redis-server is not installed\n");
    return [];
  }
  const redis = await startTestRedis(binary);
  const client = new Redis(redis.url, { maxRetriesPerRequest: null });
  const dir = mkdtempSync(join(tmpdir(), "warden-fleet-bench-"));
  const repo = join(dir, "repo");
  execFileSync("sh", [
    "-c",
    `mkdir -p ${repo} && cd ${repo} && git init -q && echo a > a.txt && git add . && git -c user.email=b@b -c user.name=b commit -qm a`,
  ]);
  const script = join(dir, "one-turn.jsonl");
  writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "done" }] })}\n`);
  const env = { ...process.env, WARDEN_HOME: join(dir, "home"), HOME: join(dir, "home"), WARDEN_REDIS_URL: redis.url };
  const rows: BenchRow[] = [];
  let round = 0;
  const runJobs = async (workers: number, count: number) => {
    round++;
    const procs: ChildProcess[] = [];
    const ready: Array<Promise<void>> = [];
    for (let i = 0; i < workers; i++) {
      const child = spawn(process.execPath, [bin, "fleet", "worker", "--work-dir", join(dir, `w${round}-${i}`)], {
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      procs.push(child);
      ready.push(
        new Promise((resolve) => {
          let text = "";
          child.stderr?.on("data", (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes("taking jobs")) resolve();
          });
        }),
      );
    }
    await Promise.all(ready);
    const lines = Array.from({ length: count }, (_, i) =>
      JSON.stringify({ prompt: `job ${i}`, model: `replay:${script}`, repo }),
    ).join("\n");
    const started = performance.now();
    const ids = execFileSync(process.execPath, [bin, "fleet", "submit", "-"], { env, input: lines, encoding: "utf8" })
      .trim()
      .split("\n");
    for (const id of ids) {
      while (!(await client.hget(`bull:warden-fleet:${id}`, "finishedOn"))) await sleep(20);
    }
    const elapsed = performance.now() - started;
    for (const child of procs) child.kill("SIGKILL");
    return { ids, elapsed };
  };

  try {
    const perMinute: number[] = [];
    for (const workers of [1, 2, 4]) {
      const { elapsed } = await runJobs(workers, 16);
      const rate = (16 / elapsed) * 60_000;
      perMinute.push(rate);
      rows.push({
        name: `fleet: jobs per minute, ${workers} worker${workers > 1 ? "s" : ""} (16 one-turn jobs)`,
        value: Math.round(rate),
        unit: "jobs/min",
        ...(workers > 1 ? { note: `${(rate / (perMinute[0] ?? rate)).toFixed(2)}x one worker` } : {}),
      });
    }

    // One job at a time, against the same session run locally in a clone.
    const local: number[] = [];
    for (let i = 0; i < 8; i++) {
      const cwd = join(dir, `local-${i}`);
      execFileSync("git", ["clone", "-q", repo, cwd]);
      const t0 = performance.now();
      execFileSync(
        process.execPath,
        [bin, "-p", "job", "--model", `replay:${script}`, "--output-format", "stream-json", "--verbose", "--cwd", cwd],
        { env },
      );
      local.push(performance.now() - t0);
    }
    const work: number[] = [];
    const handover: number[] = [];
    const phases = { prepare_ms: [] as number[], session_ms: [] as number[], finish_ms: [] as number[] };
    for (let i = 0; i < 8; i++) {
      const { ids } = await runJobs(1, 1);
      const job = await client.hgetall(`bull:warden-fleet:${ids[0]}`);
      work.push(Number(job.finishedOn) - Number(job.processedOn));
      handover.push(Number(job.processedOn) - Number(job.timestamp));
      const events = await client.xrange(`warden:fleet:job:${ids[0]}:events`, "-", "+");
      for (const [, fields] of events) {
        const event = JSON.parse(fields[1] ?? "{}") as Record<string, number>;
        for (const key of Object.keys(phases) as Array<keyof typeof phases>) {
          if (typeof event[key] === "number") phases[key].push(event[key]);
        }
      }
    }
    rows.push({
      name: "fleet: local `warden -p`, one-turn replayed session (median)",
      value: median(local),
      unit: "ms",
    });
    rows.push({ name: "fleet: worker's time on the same session as a job (median)", value: median(work), unit: "ms" });
    rows.push({
      name: "fleet: overhead of a fleet job over the local session",
      value: median(work) - median(local),
      unit: "ms",
      target: "<= 50",
    });
    rows.push({
      name: "fleet: the job's own steps: clone / session process / patch and result (medians)",
      value: median(phases.prepare_ms),
      unit: "ms",
      note: `/ ${median(phases.session_ms)} / ${median(phases.finish_ms)} ms`,
    });
    rows.push({
      name: "fleet: queue hand-over, submit -> a worker starts it (median)",
      value: median(handover),
      unit: "ms",
    });
  } finally {
    client.disconnect();
    await redis.stop();
  }
  return rows;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
