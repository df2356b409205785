// The fleet-wide limit on sessions of one model provider (the provider's rate limits are for the
// whole account, not one worker): a counting semaphore in Redis. A slot is a lease, renewed while
// the session runs, so a worker killed with its slots held gives them back when the lease ends.
import type { Redis } from "ioredis";
import { keys } from "./keys.js";

/** KEYS[1] slots, KEYS[2] limits; ARGV: provider, job id, now, lease end. 1 taken, 0 full. */
const ACQUIRE = `
local limit = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if limit <= 0 then return 1 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if redis.call('ZSCORE', KEYS[1], ARGV[2]) or redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
  return 1
end
return 0`;

export const SLOT_LEASE_MS = 30_000;

/**
 * How long a job that found its provider at the limit waits before it tries again: this plus up
 * to as much again at random, so that waiting jobs do not all come back at once.
 * WARDEN_FLEET_SLOT_RETRY_MS (the worker's environment), else 1 s; the tests shorten it.
 */
export function slotRetryDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.WARDEN_FLEET_SLOT_RETRY_MS);
  const base = Number.isInteger(raw) && raw > 0 ? raw : 1_000;
  return base + Math.floor(Math.random() * base);
}

export async function setProviderLimit(redis: Redis, provider: string, limit: number): Promise<void> {
  if (limit > 0) await redis.hset(keys.providerLimits, provider, String(limit));
  else await redis.hdel(keys.providerLimits, provider);
}

export async function providerLimits(redis: Redis): Promise<Record<string, number>> {
  const raw = await redis.hgetall(keys.providerLimits);
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
}

export interface Slot {
  release(): Promise<void>;
}

/** Takes a slot of `provider` for `jobId`, or returns undefined when the fleet is at its limit. */
export async function tryAcquireSlot(redis: Redis, provider: string, jobId: string): Promise<Slot | undefined> {
  const slotsKey = keys.providerSlots(provider);
  const take = async () => {
    const now = Date.now();
    return redis.eval(ACQUIRE, 2, slotsKey, keys.providerLimits, provider, jobId, now, now + SLOT_LEASE_MS);
  };
  if ((await take()) !== 1) return undefined;
  const renew = setInterval(() => void take().catch(() => undefined), SLOT_LEASE_MS / 3);
  renew.unref();
  return {
    async release() {
      clearInterval(renew);
      await redis.zrem(slotsKey, jobId).catch(() => undefined);
    },
  };
}
