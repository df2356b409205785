// Who sent a message between sessions (./session-socket.ts). The socket lives in a folder only
// this user can enter (0700) and is itself 0600, so the kernel lets only this user's processes
// connect: the peer's uid is the user's. Which *session* it is, the message's `from` cannot be
// trusted to say (any process of the user can write any JSON), and Node offers no SO_PEERCRED to
// name the peer process. So each session proves itself with a key of its own: 32 random bytes in
// `sessions/<id>.key` (0600, created on the session's first send, never sent), with which it signs
// every message (HMAC-SHA256 over the sender, the recipient, the text and the time). The receiver
// reads the claimed sender's key file and checks the signature: a process that is not that session
// and cannot read its key (which lives outside every project, in Warden's private home) cannot
// sign as it; an unsigned, mis-signed, stale or replayed message is refused with the reason.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** How far a message's time may be from the receiver's clock. */
export const MESSAGE_MAX_AGE_MS = 5 * 60_000;

/** What the signature covers: everything the receiver shows or delivers, and where it was sent. */
export interface SignedFields {
  fromSessionId: string;
  fromCwd: string;
  fromName?: string;
  /** The recipient's socket path: a message signed for one session is no good at another. */
  to: string;
  text: string;
  summary: string;
  sentAt: number;
  nonce: string;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function keyPath(dir: string, sessionId: string): string {
  if (!SESSION_ID.test(sessionId) || sessionId.includes("..")) throw new Error(`not a session id: ${sessionId}`);
  return join(dir, `${sessionId}.key`);
}

/**
 * Reads a session's key, refusing one that another user owns, that others may read or write, or
 * that is a symbolic link (O_NOFOLLOW): such a file proves nothing. Undefined when there is none.
 */
export function readSessionKey(dir: string, sessionId: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(keyPath(dir, sessionId), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) return undefined;
    const key = readFileSync(fd);
    return key.length >= 32 ? key : undefined;
  } finally {
    closeSync(fd);
  }
}

/** This session's key, made (0600, exclusively) on first use. */
export function ownSessionKey(dir: string, sessionId: string): Buffer {
  const existing = readSessionKey(dir, sessionId);
  if (existing) return existing;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // `wx`: never through a file (or link) someone else put there first.
  writeFileSync(keyPath(dir, sessionId), key, { mode: 0o600, flag: "wx" });
  return key;
}

function canonical(fields: SignedFields): string {
  return JSON.stringify([
    fields.fromSessionId,
    fields.fromCwd,
    fields.fromName ?? null,
    fields.to,
    fields.text,
    fields.summary,
    fields.sentAt,
    fields.nonce,
  ]);
}

export function signMessage(fields: SignedFields, key: Buffer): string {
  return createHmac("sha256", key).update(canonical(fields)).digest("hex");
}

export function newNonce(): string {
  return randomBytes(16).toString("hex");
}

/** Nonces seen recently, per receiving process: a replayed message is refused. */
const seenNonces = new Map<string, number>();

/** Undefined when the message really comes from the session it names; else why it is refused. */
export function verifyMessage(
  dir: string,
  fields: SignedFields,
  signature: string | undefined,
  now = Date.now(),
): string | undefined {
  if (signature === undefined || !/^[0-9a-f]{64}$/.test(signature))
    return `the message is not signed, so nothing shows it comes from session ${fields.fromSessionId}`;
  let key: Buffer | undefined;
  try {
    key = readSessionKey(dir, fields.fromSessionId);
  } catch {
    key = undefined;
  }
  if (!key) return `session ${fields.fromSessionId} has no key on this machine: the sender is not that session`;
  const expected = Buffer.from(signMessage(fields, key), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex")))
    return `the signature does not match session ${fields.fromSessionId}'s key: the sender is not that session`;
  if (!Number.isFinite(fields.sentAt) || Math.abs(now - fields.sentAt) > MESSAGE_MAX_AGE_MS)
    return "the message is too old (or from the future) to be let in";
  for (const [nonce, at] of seenNonces) if (now - at > MESSAGE_MAX_AGE_MS) seenNonces.delete(nonce);
  if (seenNonces.has(fields.nonce)) return "the same message arrived before: a replay is refused";
  seenNonces.set(fields.nonce, now);
  return undefined;
}
