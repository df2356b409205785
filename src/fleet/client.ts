// The submitter's side of the fleet: add jobs, read their state, follow their events, cancel
// them, collect their results. Every call waits for Redis at most `giveUpAfterMs` and then fails
// with a message naming the URL (see redis.ts), never a silent hang.
import { type Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { loadJobKey } from "./job-key.js";
import { signedJobData } from "./job-signature.js";
import type { JobSpec } from "./job-spec.js";
import {
  expireJob,
  type FleetState,
  keys,
  QUEUE_NAME,
  removeAfterRetention,
  retainSeconds,
  TERMINAL_STATES,
} from "./keys.js";
import { connectionError, FleetNoSuchJobError, FleetUsageError, openRedis } from "./redis.js";
import type { RefusedCall } from "./refusals.js";

export interface FleetClientOptions {
  url: string;
  report: (line: string) => void;
  giveUpAfterMs?: number;
}

export interface JobStatus {
  id: string;
  state: FleetState;
  prompt: string;
  model?: string;
  repo?: string;
  worker?: string;
  runs: number;
  sessionId?: string;
  submittedAt?: string;
  finishedAt?: string;
  error?: string;
  /** How many of the session's calls were refused (a completed job may not have done all it was asked). */
  refusedCalls?: number;
}

export interface JobResult extends JobStatus {
  /** The session's result line (stream-json `result`), as the job's session printed it. */
  result?: Record<string, unknown>;
  structuredOutput?: unknown;
  diffstat?: string;
  patch?: string;
  /** The calls the session was refused, each with its reason. */
  refusals?: RefusedCall[];
}

/** How many times a job is retried (provider overload, a crashed session) and how long between. */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 2_000;

/**
 * The first retry's delay (each next one doubles it): WARDEN_FLEET_BACKOFF_MS, else 2 s. The
 * submitter's setting, stored with each job; the tests shorten it so a retried job does not wait.
 */
export function jobBackoffMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.WARDEN_FLEET_BACKOFF_MS);
  return Number.isInteger(raw) && raw > 0 ? raw : JOB_BACKOFF_MS;
}

export class FleetClient {
  readonly redis: Redis;
  readonly queue: Queue;
  private jobKey: Buffer | undefined;

  constructor(options: FleetClientOptions) {
    this.redis = openRedis(options.url, {
      role: "client",
      report: options.report,
      giveUpAfterMs: options.giveUpAfterMs ?? redisTimeoutFromEnv(),
    });
    this.queue = new Queue(QUEUE_NAME, { connection: this.redis });
    this.queue.on("error", () => undefined);
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
  }

  /** Runs a call, turning a connection given up on into the clear error. */
  async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof FleetUsageError) throw error;
      if (this.redis.status === "end" || /Connection is closed/i.test(String(error))) {
        throw connectionError(this.redis, error);
      }
      throw error;
    }
  }

  /** A job's data as it goes into the queue: the spec signed with the fleet's job key (job-key.ts). */
  signed(spec: JobSpec): Record<string, unknown> {
    this.jobKey ??= loadJobKey();
    return signedJobData(spec, this.jobKey);
  }

  async submit(specs: readonly JobSpec[]): Promise<string[]> {
    const data = specs.map((spec) => this.signed(spec));
    return this.call(async () => {
      const jobs = await this.queue.addBulk(
        data.map((signed) => ({
          name: "session",
          data: signed,
          opts: {
            attempts: JOB_ATTEMPTS,
            backoff: { type: "exponential", delay: jobBackoffMs() },
            ...removeAfterRetention(),
          },
        })),
      );
      const now = Date.now();
      const ids = jobs.map((job) => String(job.id));
      const pipeline = this.redis.pipeline();
      // Jobs past the retention have expired: their ids leave the list too.
      pipeline.zremrangebyscore(keys.allJobs, "-inf", (now - retainSeconds() * 1_000) * 1_000);
      for (const [index, id] of ids.entries()) {
        // Scores in submission order (ids of one second sort as strings otherwise).
        pipeline.zadd(keys.allJobs, now * 1_000 + index, id);
        pipeline.hset(keys.job(id), "submittedAt", new Date(now).toISOString());
      }
      await pipeline.exec();
      return ids;
    });
  }

  async status(id: string): Promise<JobStatus | undefined> {
    return this.call(async () => {
      const [job, hash] = await Promise.all([this.queue.getJob(id), this.redis.hgetall(keys.job(id))]);
      if (!job && Object.keys(hash).length === 0) return undefined;
      return statusOf(id, job, hash, job ? await job.getState() : "unknown");
    });
  }

  /** Every job submitted, oldest first. */
  async jobIds(): Promise<string[]> {
    return this.call(() => this.redis.zrange(keys.allJobs, "0", "-1"));
  }

  async result(id: string): Promise<JobResult | undefined> {
    return this.call(async () => {
      const status = await this.status(id);
      if (!status) return undefined;
      const hash = await this.redis.hgetall(keys.job(id));
      const patch = (await this.redis.get(keys.patch(id))) ?? undefined;
      const result = hash.result ? (JSON.parse(hash.result) as Record<string, unknown>) : undefined;
      const refusals = hash.refusals ? (JSON.parse(hash.refusals) as RefusedCall[]) : [];
      return {
        ...status,
        ...(refusals.length > 0 ? { refusals } : {}),
        ...(result ? { result, structuredOutput: result.structured_output } : {}),
        ...(hash.diffstat !== undefined ? { diffstat: hash.diffstat } : {}),
        ...(patch !== undefined ? { patch } : {}),
      };
    });
  }

  /**
   * Cancels a job: one still waiting leaves the queue; a running one is aborted by its worker (as
   * ESC would) and its processes ended. Waits up to `waitMs` for the worker to confirm.
   */
  async cancel(id: string, waitMs = 20_000): Promise<JobStatus> {
    return this.call(async () => {
      const status = await this.status(id);
      if (!status) throw new FleetNoSuchJobError(`no fleet job ${id}`);
      if (TERMINAL_STATES.has(status.state)) return status;
      await this.redis.hset(keys.job(id), "cancel", new Date().toISOString());
      const job = await this.queue.getJob(id);
      const state = job ? await job.getState() : "unknown";
      if (job && state !== "active") {
        // Not running: taken out of the queue. A worker that took it meanwhile sees the flag.
        await job.remove().catch(() => undefined);
        if ((await job.getState().catch(() => "unknown")) === "unknown") {
          await this.redis.hset(keys.job(id), "outcome", "cancelled", "finishedAt", new Date().toISOString());
          await this.redis.xadd(
            keys.events(id),
            "*",
            "line",
            JSON.stringify({ type: "fleet", event: "end", state: "cancelled" }),
            "end",
            "cancelled",
          );
          await expireJob(this.redis, id);
        }
      }
      const deadline = Date.now() + waitMs;
      for (;;) {
        const now = await this.status(id);
        if (!now || TERMINAL_STATES.has(now.state) || Date.now() > deadline) return now ?? status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
  }

  /**
   * The job's events from the start; with `follow`, new ones as they come (XREAD BLOCK) until
   * the job ends. Each line is handed to `onLine` as the session printed it.
   */
  async logs(id: string, follow: boolean, onLine: (line: string) => void): Promise<void> {
    return this.call(async () => {
      if (!(await this.status(id))) throw new FleetNoSuchJobError(`no fleet job ${id}`);
      let last = "0-0";
      for (;;) {
        const read = await this.redis.xread(
          "COUNT",
          500,
          "BLOCK",
          follow ? 1_000 : 1,
          "STREAMS",
          keys.events(id),
          last,
        );
        const entries = read?.[0]?.[1] ?? [];
        let ended = false;
        for (const [entryId, fields] of entries) {
          last = entryId;
          const line = fieldOf(fields, "line");
          if (line !== undefined) onLine(line);
          if (fieldOf(fields, "end") !== undefined) ended = true;
        }
        if (entries.length > 0 && !ended) continue;
        if (!follow || ended) return;
        // A second with nothing new: a job that ended without an end line (its last retry crashed) is over.
        const status = await this.status(id);
        if (!status || TERMINAL_STATES.has(status.state)) return;
      }
    });
  }
}

/** How long a fleet command waits for an unreachable Redis: WARDEN_FLEET_REDIS_TIMEOUT_MS, else 30 s. */
function redisTimeoutFromEnv(): number {
  const raw = Number(process.env.WARDEN_FLEET_REDIS_TIMEOUT_MS);
  return Number.isFinite(raw) && raw > 0 ? raw : 30_000;
}

function fieldOf(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

function statusOf(id: string, job: Job | undefined, hash: Record<string, string>, bullState: string): JobStatus {
  const data = (job?.data ?? {}) as Partial<JobSpec>;
  const state = foldState(bullState, hash);
  return {
    id,
    state,
    prompt: clip(data.prompt ?? "", 200),
    ...(data.model ? { model: data.model } : {}),
    ...(data.repo ? { repo: data.repo } : {}),
    ...(hash.worker ? { worker: hash.finishedBy ?? hash.worker } : {}),
    runs: Number(hash.runs ?? 0),
    ...(hash.sessionId ? { sessionId: hash.sessionId } : {}),
    ...(hash.submittedAt ? { submittedAt: hash.submittedAt } : {}),
    ...(hash.finishedAt ? { finishedAt: hash.finishedAt } : {}),
    ...(state === "failed" && (job?.failedReason || hash.refused)
      ? { error: job?.failedReason || `refused: ${hash.refused}` }
      : {}),
    ...(refusedCallsOf(hash) > 0 ? { refusedCalls: refusedCallsOf(hash) } : {}),
  };
}

function refusedCallsOf(hash: Record<string, string>): number {
  if (!hash.refusals) return 0;
  try {
    const list: unknown = JSON.parse(hash.refusals);
    return Array.isArray(list) ? list.length : 0;
  } catch {
    return 0;
  }
}

function foldState(bullState: string, hash: Record<string, string>): FleetState {
  if (hash.outcome === "cancelled") return "cancelled";
  if (hash.outcome === "completed") return "completed";
  switch (bullState) {
    case "active":
      return "active";
    case "completed":
      return "completed";
    case "failed":
      return "failed";
    case "unknown":
      return hash.outcome === "failed" ? "failed" : "cancelled";
    default:
      // waiting, delayed (a retry's back-off, a provider at its limit), prioritized, waiting-children
      return "waiting";
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
