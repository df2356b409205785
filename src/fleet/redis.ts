// One place that opens Redis for the fleet: the URL (--redis, WARDEN_REDIS_URL, else the local
// default), how long to keep reconnecting, and what a person is told while Redis is away.
//
// ioredis reconnects by itself and queues commands while it does (its offline queue), so a worker
// whose Redis restarts carries on where it was. What it does not do is tell anyone: a fleet
// command waiting on an unreachable Redis would look like a hang. Each connection therefore says
// once, on stderr, that Redis is unreachable and that it keeps trying, and once that it is back;
// short-lived commands (submit, status, logs, cancel, results) give up after `giveUpAfterMs` with
// an error naming the URL and the cause.
import { readFileSync, type Stats, statSync } from "node:fs";
import { Redis } from "ioredis";

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/**
 * Where Redis is: `--redis URL`, else WARDEN_REDIS_URL, else the file `--redis-url-file` or
 * WARDEN_REDIS_URL_FILE names (private to its owner: the URL may hold a password), else the local
 * default. A file or the environment keeps the password out of `ps`, which shows every argv.
 */
export function redisUrlFrom(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  fileFlag: string | undefined = undefined,
): string {
  const file = fileFlag ?? env.WARDEN_REDIS_URL_FILE?.trim();
  const url =
    flag ?? (env.WARDEN_REDIS_URL?.trim() || undefined) ?? (file ? readUrlFile(file) : undefined) ?? DEFAULT_REDIS_URL;
  if (!/^rediss?:\/\//.test(url)) {
    throw new FleetUsageError(`the Redis URL must start with redis:// or rediss:// (got ${JSON.stringify(url)})`);
  }
  return url;
}

function readUrlFile(path: string): string {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch {
    throw new FleetUsageError(`the Redis URL file ${path} does not exist`);
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new FleetUsageError(
      `the Redis URL file ${path} is readable by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, "0")}): chmod 600 it`,
    );
  }
  return readFileSync(path, "utf8").trim();
}

/** Bad input to a fleet command: printed as is, exit code 2. */
export class FleetUsageError extends Error {}

/** An id that names no job: exit code 1 from every command (not 2, which says the command was misused). */
export class FleetNoSuchJobError extends FleetUsageError {}

/** Redis could not be reached in time: printed as is, exit code 1. */
export class FleetConnectionError extends Error {}

export interface OpenRedisOptions {
  /** Where outage and recovery notices go (stderr in the CLI). */
  report: (line: string) => void;
  /**
   * Commands fail after Redis has been unreachable this long (ms). Undefined: keep waiting, as a
   * worker does (BullMQ needs `maxRetriesPerRequest: null` for its blocking connections).
   */
  giveUpAfterMs?: number;
  /** Names the connection in notices ("worker", "submit"...). */
  role: string;
}

/** Redacts a password from a URL before it is printed. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

export function openRedis(url: string, options: OpenRedisOptions): Redis {
  const shown = displayUrl(url);
  let downSince: number | undefined;
  let lastCause = "";
  let failed = false;
  const redis = new Redis(url, {
    // null: a command waits for the reconnection instead of failing after 20 tries. Short-lived
    // commands get their deadline from the retry strategy below instead.
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectTimeout: 5_000,
    retryStrategy: (times) => {
      const waited = downSince === undefined ? 0 : Date.now() - downSince;
      if (options.giveUpAfterMs !== undefined && waited >= options.giveUpAfterMs) {
        failed = true;
        return null;
      }
      return Math.min(100 * 2 ** Math.min(times, 5), 2_000);
    },
  });
  redis.on("error", (error: Error) => {
    lastCause = describeCause(error);
    if (downSince === undefined) {
      downSince = Date.now();
      const until =
        options.giveUpAfterMs === undefined
          ? "retrying until it is back"
          : `retrying for ${Math.round(options.giveUpAfterMs / 1000)} s`;
      options.report(`warden fleet (${options.role}): Redis at ${shown} is unreachable (${lastCause}); ${until}`);
    }
  });
  redis.on("ready", () => {
    if (downSince !== undefined) {
      options.report(`warden fleet (${options.role}): Redis at ${shown} is back; carrying on`);
      downSince = undefined;
    }
  });
  redis.on("end", () => {
    if (failed) {
      // Everything still queued fails with ioredis's own "Connection is closed"; the caller turns
      // that into connectionError() below.
      downSince = undefined;
    }
  });
  Object.defineProperty(redis, "wardenCause", { get: () => lastCause });
  Object.defineProperty(redis, "wardenUrl", { value: shown });
  return redis;
}

/** The error a short-lived command ends with when Redis stayed away. */
export function connectionError(redis: Redis, error: unknown): Error {
  const cause = (redis as unknown as { wardenCause?: string }).wardenCause || describeCause(error);
  const url = (redis as unknown as { wardenUrl?: string }).wardenUrl ?? "";
  return new FleetConnectionError(
    `cannot reach Redis at ${url} (${cause}); start redis-server or pass --redis URL / WARDEN_REDIS_URL`,
  );
}

export function isConnectionClosed(error: unknown): boolean {
  return error instanceof Error && /Connection is closed|Stream isn't writeable|max retries/i.test(error.message);
}

function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code}` : error.message;
  }
  return String(error);
}
