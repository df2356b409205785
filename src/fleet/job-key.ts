// The fleet's job key: the secret that submitters sign jobs with and workers check them by
// (job-signature.ts). Whoever can write to Redis but lacks the key cannot make a worker run a job.
// It comes from WARDEN_FLEET_KEY (the key itself), else the file WARDEN_FLEET_KEY_FILE names, else
// `<warden home>/fleet.key`; a file must be private to its owner (0600), as ssh insists of its keys.
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { wardenHome } from "../config/paths.js";
import { FleetUsageError } from "./redis.js";

/** Shorter keys are refused: an HMAC key should hold at least 128 bits. */
const MIN_KEY_LENGTH = 16;

export function defaultJobKeyPath(): string {
  return join(wardenHome(), "fleet.key");
}

export function jobKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.WARDEN_FLEET_KEY_FILE?.trim() || defaultJobKeyPath();
}

/** The key, or a FleetUsageError saying where it was looked for and how to make one. */
export function loadJobKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const inline = env.WARDEN_FLEET_KEY?.trim();
  if (inline) return checkedKey(inline, "WARDEN_FLEET_KEY");
  const path = jobKeyPath(env);
  if (!existsSync(path)) {
    throw new FleetUsageError(
      `no fleet job key at ${path}: jobs are signed with a key every submitter and worker holds. Create one with \`warden fleet key\` and copy the file (mode 0600) to the other machines, or set WARDEN_FLEET_KEY / WARDEN_FLEET_KEY_FILE`,
    );
  }
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new FleetUsageError(
      `the fleet job key ${path} is readable by others (mode ${mode.toString(8).padStart(4, "0")}): chmod 600 it`,
    );
  }
  return checkedKey(readFileSync(path, "utf8").trim(), path);
}

function checkedKey(text: string, where: string): Buffer {
  if (text.length < MIN_KEY_LENGTH) {
    throw new FleetUsageError(`the fleet job key from ${where} is too short (at least ${MIN_KEY_LENGTH} characters)`);
  }
  return Buffer.from(text, "utf8");
}

/** Makes a key file (0600) unless one exists; returns its path and whether it was made now. */
export function ensureJobKeyFile(path = jobKeyPath()): { path: string; created: boolean } {
  if (existsSync(path)) return { path, created: false };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // `wx`: never overwrite a key another process made meanwhile; mode set at creation, so the key
  // is never readable by others, not even for a moment.
  const fd = openSync(path, "wx", 0o600);
  try {
    writeSync(fd, `${randomBytes(32).toString("base64url")}\n`);
    if ((fstatSync(fd).mode & 0o077) !== 0) throw new Error(`${path} was created readable by others`);
  } finally {
    closeSync(fd);
  }
  return { path, created: true };
}
