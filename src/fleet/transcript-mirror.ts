// The session's transcript, line by line, in Redis as it is written, so a worker that takes the
// job over after a crash resumes from it rather than from the dead worker's disk.
//
// Only the job's current owner may write: every push checks, inside Redis, that the owner token
// it carries is still the job's. A worker that lost the job (its lock expired while it was stuck,
// and another worker took over) can then never interleave lines with the new owner's.
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Redis } from "ioredis";
import { keys } from "./keys.js";

const OWNED_PUSH = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
for i = 2, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
return #ARGV - 1`;

const OWNED_SET = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
redis.call('SET', KEYS[2], ARGV[2])
return 1`;

export async function ownedPush(redis: Redis, jobId: string, owner: string, lines: string[]): Promise<boolean> {
  if (lines.length === 0) return true;
  const pushed = await redis.eval(OWNED_PUSH, 2, keys.job(jobId), keys.transcript(jobId), owner, ...lines);
  return pushed !== -1;
}

export async function ownedSet(
  redis: Redis,
  jobId: string,
  owner: string,
  key: string,
  value: string,
): Promise<boolean> {
  return (await redis.eval(OWNED_SET, 2, keys.job(jobId), key, owner, value)) !== -1;
}

/** Writes the transcript kept in Redis to `path`; returns how many lines (0: nothing kept yet). */
export async function restoreTranscript(redis: Redis, jobId: string, path: string): Promise<number> {
  const lines = await redis.lrange(keys.transcript(jobId), 0, -1);
  if (lines.length === 0) return 0;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${lines.join("\n")}\n`, { mode: 0o600 });
  return lines.length;
}

export interface MirrorOptions {
  redis: Redis;
  jobId: string;
  owner: string;
  path: string;
  /** Called after lines holding a completed turn (a user message: tool results) reached Redis. */
  onTurnRecorded: () => void;
  /** A new session's file is followed from its first byte, a resumed one from its restored end. */
  startAtBeginning: boolean;
  /** The job has another owner now: stop the session. */
  onOwnershipLost: () => void;
  pollMs?: number;
}

/** Follows a transcript file from its current end (what was restored is in Redis already). */
export class TranscriptMirror {
  private offset: number;
  /** Bytes of a line the session is still writing (kept as bytes: a character may be split). */
  private partial: Buffer = Buffer.alloc(0);
  private timer: NodeJS.Timeout | undefined;
  private pushing: Promise<void> = Promise.resolve();
  private lost = false;

  constructor(private readonly options: MirrorOptions) {
    this.offset = !options.startAtBeginning && existsSync(options.path) ? statSync(options.path).size : 0;
  }

  start(): void {
    this.timer = setInterval(() => this.poll(), this.options.pollMs ?? 100);
  }

  /** Reads what is left and waits until it is in Redis. */
  async finish(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.poll();
    await this.pushing;
  }

  private poll(): void {
    const lines = this.readNewLines();
    if (lines.length === 0 || this.lost) return;
    const turnEnded = lines.some(isUserMessageLine);
    this.pushing = this.pushing.then(async () => {
      const ok = await ownedPush(this.options.redis, this.options.jobId, this.options.owner, lines).catch(() => false);
      if (!ok && !this.lost) {
        this.lost = true;
        this.options.onOwnershipLost();
        return;
      }
      if (turnEnded) this.options.onTurnRecorded();
    });
  }

  private readNewLines(): string[] {
    if (!existsSync(this.options.path)) return [];
    const size = statSync(this.options.path).size;
    if (size <= this.offset) return [];
    const fd = openSync(this.options.path, "r");
    try {
      const buffer = Buffer.alloc(size - this.offset);
      const read = readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset += read;
      const bytes = Buffer.concat([this.partial, buffer.subarray(0, read)]);
      const end = bytes.lastIndexOf(0x0a);
      // A line the session is still writing waits for its newline.
      this.partial = bytes.subarray(end + 1);
      if (end < 0) return [];
      return bytes
        .subarray(0, end)
        .toString("utf8")
        .split("\n")
        .filter((line) => line.trim() !== "");
    } finally {
      closeSync(fd);
    }
  }
}

/** A user message carrying tool results: the end of a turn whose tools ran. */
function isUserMessageLine(line: string): boolean {
  if (!line.includes('"tool_result"')) return false;
  try {
    const entry = JSON.parse(line) as { message?: { role?: unknown } };
    return entry.message?.role === "user";
  } catch {
    return false;
  }
}
