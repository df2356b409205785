// `warden fleet worker`: takes jobs from the queue, up to `concurrency` at once, until stopped.
// BullMQ holds a lock on each running job and renews it; a worker that dies stops renewing, and
// after `lockDuration` another worker's stalled-job check puts the job back in the queue, where it
// is taken up and resumed from its transcript (run-job.ts).
import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { isAbsolute, join } from "node:path";
import { Worker } from "bullmq";
import { userHome } from "../config/paths.js";
import { sessionBaseEnv } from "./child-env.js";
import type { JobSessionArgs } from "./child-session.js";
import { shownJobId } from "./job-id.js";
import { expireJob, QUEUE_NAME } from "./keys.js";
import { setProviderLimit } from "./provider-slots.js";
import { openRedis } from "./redis.js";
import { JobCancelledError, processJob } from "./run-job.js";
import { WarmSessions } from "./warm-sessions.js";
import type { WorkerPolicy } from "./worker-policy.js";

export interface WorkerOptions {
  url: string;
  concurrency: number;
  /** The `warden` command the sessions run with. */
  command: readonly string[];
  /** A job's run as the command's arguments: its SessionSpec, serialised (cli/session/spec-wire.ts). */
  sessionArgs: JobSessionArgs;
  /** How long a job's lock lasts without renewal (ms): how soon a dead worker's job moves on. */
  lockDuration: number;
  /** How often this worker looks for jobs whose worker died (ms). */
  stalledInterval: number;
  /** provider -> fleet-wide limit, written to Redis for every worker. */
  providerLimits: Record<string, number>;
  workRoot?: string;
  /** What this worker lets a job do, whatever reached the queue (worker-policy.ts). */
  policy: WorkerPolicy;
  /** The fleet's job key: a job whose signature it does not prove is refused (job-signature.ts). */
  jobKey: Buffer;
  report: (line: string) => void;
}

/**
 * Where a worker keeps its jobs' clones unless told: `$XDG_STATE_HOME/warden/fleet/<worker>`, else
 * `~/.local/state/warden/fleet/<worker>`. Not under `~/.warden`: that folder is protected from
 * the tools' writes (it holds settings), so a clone inside it could never be changed by its session.
 */
export function defaultWorkRoot(workerId: string, env: NodeJS.ProcessEnv = process.env): string {
  const state =
    env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(userHome(), ".local", "state");
  return join(state, "warden", "fleet", workerId);
}

/** A worker's id: host, process and a few random characters, unique across a fleet's machines. */
export function newWorkerId(): string {
  return `${hostname()}-${process.pid}-${randomUUID().slice(0, 4)}`;
}

export interface RunningWorker {
  id: string;
  /** Stops taking jobs and waits for the running ones to end. */
  close(): Promise<void>;
}

export async function startWorker(options: WorkerOptions, id = newWorkerId()): Promise<RunningWorker> {
  const redis = openRedis(options.url, { role: "worker", report: options.report });
  const workRoot = options.workRoot ?? defaultWorkRoot(id);
  // Private to the worker's user: the clones hold whatever the jobs' repositories hold.
  mkdirSync(workRoot, { recursive: true, mode: 0o700 });
  chmodSync(workRoot, 0o700);
  for (const [provider, limit] of Object.entries(options.providerLimits)) {
    await setProviderLimit(redis, provider, limit);
  }
  // WARDEN_FLEET_WARM=0: every job starts its session process from scratch.
  const warm =
    process.env.WARDEN_FLEET_WARM === "0"
      ? undefined
      : new WarmSessions(options.command, options.concurrency, workRoot, sessionBaseEnv());
  warm?.fill();
  const context = {
    redis,
    workerId: id,
    workRoot,
    command: options.command,
    sessionArgs: options.sessionArgs,
    report: options.report,
    warm,
    policy: options.policy,
    jobKey: options.jobKey,
  };
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
    if (job && error instanceof JobCancelledError) {
      options.report(`warden fleet worker: job ${shownJobId(job.id ?? "")} cancelled`);
      if (job.id) void expireJob(redis, job.id).catch(() => undefined);
    } else if (job && error.name !== "DelayedError") {
      // An attempt BullMQ will retry is not the job's end: "failed" alone read as if it were, and
      // the same job then completed.
      const again = job.finishedOn
        ? ""
        : ` (attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1}; it will be tried again)`;
      options.report(`warden fleet worker: job ${shownJobId(job.id ?? "")} failed${again}: ${error.message}`);
      // Its last attempt: nothing will write to its keys again.
      if (job.id && job.finishedOn) void expireJob(redis, job.id).catch(() => undefined);
    }
  });
  await worker.waitUntilReady();
  options.report(
    `warden fleet worker ${id}: taking jobs (concurrency ${options.concurrency}, lock ${options.lockDuration} ms) in ${workRoot}`,
  );
  options.report(`warden fleet worker ${id}: jobs may use ${options.policy.summary()}`);
  return {
    id,
    async close() {
      await worker.close();
      warm?.close();
      redis.disconnect();
    },
  };
}
