// Messages between sessions on this machine (SendMessage to `uds:<socket>` or `bridge:<session id>`):
// a session with agent teams on listens on a Unix socket in Warden's home, `sessions/<id>.sock`;
// a sender connects, writes one JSON line, and reads one JSON line back: whether the receiving
// session's user let the message in (a message from another session always asks them first), or
// that the answer is still pending. This file is the address and the wire format, and the
// sender's side; the receiving side is cli/session/inbox.ts.

import { realpathSync } from "node:fs";
import { createConnection } from "node:net";
import { isAbsolute, join, resolve } from "node:path";
import { wardenHome } from "../config/paths.js";
import { newNonce, ownSessionKey, type SignedFields, signMessage } from "./message-auth.js";

/** One message, as the sender writes it. */
export interface SessionMessage {
  type: "session_message";
  /** The sending session: its id and folder, as the receiver's user is shown them. */
  from: { sessionId: string; cwd: string; name?: string };
  text: string;
  summary: string;
  /** When it was sent (ms since the epoch) and a random nonce: a replay is refused. */
  sentAt: number;
  nonce: string;
  /** HMAC with the sending session's key (./message-auth.ts): proves `from.sessionId`. */
  signature: string;
}

/** A message from this session to the socket at `to`, signed with this session's key. */
export function signedSessionMessage(
  from: SessionMessage["from"],
  to: string,
  text: string,
  summary: string,
): SessionMessage {
  const sentAt = Date.now();
  const nonce = newNonce();
  const key = ownSessionKey(sessionSocketDir(), from.sessionId);
  const signature = signMessage(signedFieldsOf({ from, text, summary, sentAt, nonce }, socketIdentity(to)), key);
  return { type: "session_message", from, text, summary, sentAt, nonce, signature };
}

/** A socket's path as both ends spell it: links resolved, so `uds:` spellings of one socket agree. */
export function socketIdentity(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** What the signature covers, for a message sent to the socket at `to`. */
export function signedFieldsOf(
  message: Pick<SessionMessage, "from" | "text" | "summary" | "sentAt" | "nonce">,
  to: string,
): SignedFields {
  return {
    fromSessionId: message.from.sessionId,
    fromCwd: message.from.cwd,
    ...(message.from.name !== undefined ? { fromName: message.from.name } : {}),
    to,
    text: message.text,
    summary: message.summary,
    sentAt: message.sentAt,
    nonce: message.nonce,
  };
}

/** The receiver's answer. */
export interface SessionMessageReply {
  /** delivered: the user let it in; refused: they (or the session's policy) did not; pending: not answered yet. */
  outcome: "delivered" | "refused" | "pending";
  /** The receiving session's id. */
  sessionId: string;
  /** Why it was refused. */
  reason?: string;
}

/** Longest message accepted (the receiver refuses longer lines). */
export const MAX_SESSION_MESSAGE_BYTES = 100_000;
/** Sun paths longer than this do not fit a sockaddr_un everywhere (macOS: 104 bytes). */
const MAX_SOCKET_PATH = 100;

export function sessionSocketDir(): string {
  return join(wardenHome(), "sessions");
}

/** Where the session with this id listens; undefined when the path would not fit a socket address. */
export function sessionSocketPath(sessionId: string): string | undefined {
  const path = join(sessionSocketDir(), `${sessionId}.sock`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}

/** The socket a `to` names: `uds:<absolute path>` or `bridge:<session id>`; an error text otherwise. */
export function socketForRecipient(to: string): { path: string } | { error: string } {
  if (to.startsWith("uds:")) {
    const path = to.slice("uds:".length);
    return isAbsolute(path) ? { path } : { error: `"${to}": a uds: recipient is the absolute path of a socket.` };
  }
  const id = to.slice("bridge:".length);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) || id.includes("..")) {
    return { error: `"${to}": a bridge: recipient is a session id (letters, digits, '-', '_', '.').` };
  }
  const path = sessionSocketPath(id);
  return path
    ? { path }
    : { error: `the socket of session ${id} would not fit a socket address (WARDEN_HOME is too long)` };
}

export function isCrossSessionRecipient(to: string): boolean {
  return to.startsWith("uds:") || to.startsWith("bridge:");
}

/**
 * Sends one message and waits for the receiver's answer (its user may take a while: after
 * `waitMs` the message stays with the receiver and the reply is `pending`).
 */
export function sendSessionMessage(
  path: string,
  message: SessionMessage,
  waitMs: number,
  signal?: AbortSignal,
): Promise<SessionMessageReply> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = "";
    let settled = false;
    const finish = (result: SessionMessageReply | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const timer = setTimeout(() => finish({ outcome: "pending", sessionId: "" }), waitMs);
    const onAbort = () => finish(new Error("the message was cancelled"));
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify(message)}\n`));
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf("\n");
      if (end < 0) return;
      try {
        finish(parseReply(buffer.slice(0, end)));
      } catch (error) {
        finish(error as Error);
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      const why =
        error.code === "ENOENT" || error.code === "ECONNREFUSED"
          ? `no session listens at ${path} (it is not running, or runs without agent teams)`
          : `could not reach ${path}: ${error.message}`;
      finish(new Error(why));
    });
    socket.on("close", () => finish(new Error(`the session at ${path} closed the connection without answering`)));
  });
}

function parseReply(line: string): SessionMessageReply {
  const value = JSON.parse(line) as Partial<SessionMessageReply>;
  if (value.outcome !== "delivered" && value.outcome !== "refused" && value.outcome !== "pending") {
    throw new Error("the other session answered with something that is not a message reply");
  }
  return {
    outcome: value.outcome,
    sessionId: typeof value.sessionId === "string" ? value.sessionId : "",
    ...(typeof value.reason === "string" ? { reason: value.reason } : {}),
  };
}

/**
 * A line from a sender, checked for shape (not yet for who sent it: see message-auth.ts); an error
 * text when it is not a message.
 */
export function parseSessionMessage(line: string): SessionMessage | { error: string } {
  let value: Partial<SessionMessage>;
  try {
    value = JSON.parse(line) as Partial<SessionMessage>;
  } catch {
    return { error: "not JSON" };
  }
  const from = value.from;
  if (
    value.type !== "session_message" ||
    typeof value.text !== "string" ||
    value.text === "" ||
    typeof value.summary !== "string" ||
    typeof from !== "object" ||
    from === null ||
    typeof from.sessionId !== "string" ||
    typeof from.cwd !== "string"
  ) {
    return { error: "not a session message (type, from.sessionId, from.cwd, text and summary are needed)" };
  }
  return {
    type: "session_message",
    from: { sessionId: from.sessionId, cwd: from.cwd, ...(typeof from.name === "string" ? { name: from.name } : {}) },
    text: value.text,
    summary: value.summary,
    sentAt: typeof value.sentAt === "number" ? value.sentAt : Number.NaN,
    nonce: typeof value.nonce === "string" ? value.nonce : "",
    signature: typeof value.signature === "string" ? value.signature : "",
  };
}
