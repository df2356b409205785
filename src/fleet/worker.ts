// `warden fleet worker`: takes jobs from the queue, up to `concurrency` at once, until stopped.
// BullMQ holds a lock on each running job and renews it; a worker that dies stops renewing, and
// after `lockDuration` another worker's stalled-job check puts the job back in the queue, where it
// is taken up and resumed from its transcript (run-job.ts).
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { Worker } from "bullmq";
import { wardenHome } from "../config/paths.js";
import { expireJob, QUEUE_NAME } from "./keys.js";
import { setProviderLimit } from "./provider-slots.js";
import { openRedis } from "./redis.js";
import { processJob } from "./run-job.js";
import { WarmSessions } from "./warm-sessions.js";

export interface WorkerOptions {
  url: string;
  concurrency: number;
  /** The `warden` command the sessions run with. */
  command: readonly string[];
  /** How long a job's lock lasts without renewal (ms): how soon a dead worker's job moves on. */
  lockDuration: number;
  /** How often this worker looks for jobs whose worker died (ms). */
  stalledInterval: number;
  /** provider -> fleet-wide limit, written to Redis for every worker. */
  providerLimits: Record<string, number>;
  workRoot?: string;
  report: (line: string) => void;
}

export interface RunningWorker {
  id: string;
  /** Stops taking jobs and waits for the running ones to end. */
  close(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const redis = openRedis(options.url, { role: "worker", report: options.report });
  const id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 4)}`;
  const workRoot = options.workRoot ?? join(wardenHome(), "fleet", id);
  mkdirSync(workRoot, { recursive: true });
  for (const [provider, limit] of Object.entries(options.providerLimits)) {
    await setProviderLimit(redis, provider, limit);
  }
  // WARDEN_FLEET_WARM=0: every job starts its session process from scratch.
  const warm =
    process.env.WARDEN_FLEET_WARM === "0"
      ? undefined
      : new WarmSessions(options.command, options.concurrency, workRoot);
  warm?.fill();
  const context = { redis, workerId: id, workRoot, command: options.command, report: options.report, warm };
  const worker = new Worker(QUEUE_NAME, (job, token) => processJob(context, job, token), {
    connection: redis,
    concurrency: options.concurrency,
    lockDuration: options.lockDuration,
    stalledInterval: options.stalledInterval,
    // A job whose worker died more than this often is failed rather than retried for ever.
    maxStalledCount: 5,
    autorun: true,
  });
  // BullMQ reports connection trouble as 'error' events; the connection's own notice already told
  // the person, and an unhandled 'error' would end the process.
  worker.on("error", () => undefined);
  worker.on("failed", (job, error) => {
    if (job && error.name !== "DelayedError") {
      options.report(`warden fleet worker: job ${job.id} failed: ${error.message}`);
      // Its last attempt: nothing will write to its keys again.
      if (job.id && job.finishedOn) void expireJob(redis, job.id).catch(() => undefined);
    }
  });
  await worker.waitUntilReady();
  options.report(
    `warden fleet worker ${id}: taking jobs (concurrency ${options.concurrency}, lock ${options.lockDuration} ms)`,
  );
  return {
    id,
    async close() {
      await worker.close();
      warm?.close();
      redis.disconnect();
    },
  };
}
