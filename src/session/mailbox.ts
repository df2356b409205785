// A team member's mailbox: `<team>/inboxes/<name>.json`, the messages sent to it, each marked
// read once delivered. Every change is a read-modify-write under a lock, so two senders never lose
// each other's message. A member waiting for mail is woken in process at once (teammates run in the
// session's process); a slow poll also notices messages written by another process.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../fs/atomic-write.js";
import { withFileLockSync } from "../fs/file-lock.js";
import type { TeamMessage } from "../tool/team.js";

export function inboxPath(teamDir: string, name: string): string {
  return join(teamDir, "inboxes", `${name}.json`);
}

function readInbox(path: string): TeamMessage[] {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return Array.isArray(value) ? (value as TeamMessage[]) : [];
  } catch {
    return [];
  }
}

function writeInbox(path: string, messages: TeamMessage[]): void {
  writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(messages, null, 2)}\n`));
}

const waiters = new Map<string, Set<() => void>>();

function wake(path: string): void {
  const set = waiters.get(path);
  if (!set) return;
  waiters.delete(path);
  for (const resolve of set) resolve();
}

/** Puts a message in `to`'s mailbox and wakes it if it waits. */
export function deliver(teamDir: string, to: string, message: TeamMessage): void {
  const path = inboxPath(teamDir, to);
  withFileLockSync(`${path}.lock`, () => writeInbox(path, [...readInbox(path), message]));
  wake(path);
}

export function hasUnread(teamDir: string, name: string): boolean {
  return readInbox(inboxPath(teamDir, name)).some((message) => !message.read);
}

/** The unread messages, marked read in the same locked step (each is delivered once). */
export function takeUnread(teamDir: string, name: string): TeamMessage[] {
  const path = inboxPath(teamDir, name);
  return withFileLockSync(`${path}.lock`, () => {
    const all = readInbox(path);
    const unread = all.filter((message) => !message.read);
    if (unread.length === 0) return [];
    writeInbox(
      path,
      all.map((message) => (message.read ? message : { ...message, read: true })),
    );
    return unread;
  });
}

/** Another process may write a mailbox too: looked at this often while waiting. */
const POLL_MS = 1_000;

/** Resolves when a message reaches the mailbox (or one is already there), or when `signal` aborts. */
export function waitForMail(teamDir: string, name: string, signal?: AbortSignal): Promise<void> {
  const path = inboxPath(teamDir, name);
  return new Promise((resolve) => {
    if (signal?.aborted || hasUnread(teamDir, name)) return resolve();
    let set = waiters.get(path);
    if (!set) {
      set = new Set();
      waiters.set(path, set);
    }
    const done = () => {
      clearInterval(poll);
      signal?.removeEventListener("abort", done);
      waiters.get(path)?.delete(done);
      resolve();
    };
    const poll = setInterval(() => {
      if (hasUnread(teamDir, name)) done();
    }, POLL_MS);
    poll.unref();
    set.add(done);
    signal?.addEventListener("abort", done, { once: true });
  });
}
