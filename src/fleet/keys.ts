import type { Redis } from "ioredis";

// The Redis names the fleet uses besides BullMQ's own (which live under `bull:warden-fleet:*`).
// Everything of one job sits under `warden:fleet:job:<id>:`, so a job's data can be found, read
// and expired together.

/** The BullMQ queue every session job goes through. */
export const QUEUE_NAME = "warden-fleet";

const PREFIX = "warden:fleet";

export const keys = {
  /** Hash: state, owner, sessionId, worker, result, diffstat, cancel, done, error... */
  job: (id: string) => `${PREFIX}:job:${id}`,
  /** Stream: the session's stream-json lines (field `line`), and fleet notices. */
  events: (id: string) => `${PREFIX}:job:${id}:events`,
  /** List: the transcript's JSONL lines, in order, as the session wrote them. */
  transcript: (id: string) => `${PREFIX}:job:${id}:transcript`,
  /** String: the workspace's changes at the last completed turn, as a binary git patch. */
  workspace: (id: string) => `${PREFIX}:job:${id}:workspace`,
  /** String: the finished job's whole patch. */
  patch: (id: string) => `${PREFIX}:job:${id}:patch`,
  /** Sorted set: who holds a slot of a provider (member: job id, score: lease end, ms). */
  providerSlots: (provider: string) => `${PREFIX}:slots:${provider}`,
  /** Hash: provider -> the most sessions of that provider the whole fleet runs at once. */
  providerLimits: `${PREFIX}:provider-limits`,
  /** Set of every job id submitted (for `status` and `results` without an id). */
  allJobs: `${PREFIX}:jobs`,
  /** Hash: trigger id -> the trigger as JSON (RemoteTrigger). */
  triggers: `${PREFIX}:triggers`,
};

/** What `status` reports: BullMQ's states folded into five, plus cancelled. */
export type FleetState = "waiting" | "active" | "completed" | "failed" | "cancelled";

export const TERMINAL_STATES: ReadonlySet<FleetState> = new Set(["completed", "failed", "cancelled"]);

/**
 * How long a finished job's data stays in Redis (its hash, events, transcript, patches, and
 * BullMQ's own record): WARDEN_FLEET_RETAIN_SECONDS, else 7 days. Without it a busy fleet's Redis
 * only grows.
 */
export function retainSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.WARDEN_FLEET_RETAIN_SECONDS);
  return Number.isInteger(raw) && raw > 0 ? raw : 7 * 24 * 3600;
}

/** Sets every key of a finished job to expire after the retention. */
export async function expireJob(redis: Redis, id: string, seconds = retainSeconds()): Promise<void> {
  const pipeline = redis.pipeline();
  for (const key of [keys.job(id), keys.events(id), keys.transcript(id), keys.workspace(id), keys.patch(id)]) {
    pipeline.expire(key, seconds);
  }
  await pipeline.exec();
}

/** BullMQ's own record of a finished job goes after the same time (job options). */
export function removeAfterRetention(): { removeOnComplete: { age: number }; removeOnFail: { age: number } } {
  const age = retainSeconds();
  return { removeOnComplete: { age }, removeOnFail: { age } };
}
