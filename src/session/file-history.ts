// File history: every change a tool makes to a file is recorded so that it can be undone. Per
// session, under <sessionDir>/file-history/:
//   backups/<sha256>   the content a file had before a change (content-addressed: backing up the
//                      same content twice costs nothing, so tracking is idempotent)
//   log.jsonl          one line per change, in order, plus one line per undo
// Undo restores the previous content of the last N changes, newest first, and refuses (changing
// nothing) when a file no longer holds what the tool wrote: that would throw away someone's work.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import * as path from "node:path";
import { writeFileAtomicSync } from "../fs/atomic-write.js";
import { appendJsonLine } from "../fs/json-lines.js";

export interface FileChangeEntry {
  type: "change";
  id: string;
  time: string;
  tool: string;
  path: string;
  /** sha256 of the content before the change; null when the file did not exist. */
  before: string | null;
  /** sha256 of the content the tool wrote. */
  after: string;
}

interface UndoEntry {
  type: "undo";
  time: string;
  ids: string[];
}

type HistoryLine = FileChangeEntry | UndoEntry;

export interface UndoAction {
  path: string;
  action: "restored" | "deleted";
  change: FileChangeEntry;
}

export interface UndoReport {
  actions: UndoAction[];
  /** How many changes were asked for beyond those that exist. */
  missing: number;
}

export class UndoRefusedError extends Error {}

export function fileHistoryDir(sessionDir: string): string {
  return path.join(sessionDir, "file-history");
}

function logPath(sessionDir: string): string {
  return path.join(fileHistoryDir(sessionDir), "log.jsonl");
}

function backupPath(sessionDir: string, hash: string): string {
  return path.join(fileHistoryDir(sessionDir), "backups", hash);
}

export function contentHash(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Step one of recording a change, before the file is touched: keeps the content about to be
 * replaced (null: the file does not exist yet) and returns its hash. If this fails, the write must
 * not happen, so a change is never made that could not be undone. Synchronous: it runs inside
 * the writing tools' critical section.
 */
export function backupBeforeChangeSync(sessionDir: string, beforeBytes: Uint8Array | null): string | null {
  if (!beforeBytes) return null;
  const backupsDir = path.join(fileHistoryDir(sessionDir), "backups");
  mkdirSync(backupsDir, { recursive: true });
  const before = contentHash(beforeBytes);
  const backup = backupPath(sessionDir, before);
  if (!existsSync(backup)) writeFileAtomicSync(backup, beforeBytes);
  return before;
}

/** Step two, right after the write: appends the change to the session's ordered log. */
export function logFileChangeSync(
  sessionDir: string,
  change: { tool: string; path: string; before: string | null; afterBytes: Uint8Array },
): FileChangeEntry {
  mkdirSync(fileHistoryDir(sessionDir), { recursive: true });
  const entry: FileChangeEntry = {
    type: "change",
    id: randomUUID(),
    time: new Date().toISOString(),
    tool: change.tool,
    path: change.path,
    before: change.before,
    after: contentHash(change.afterBytes),
  };
  appendJsonLine(logPath(sessionDir), entry);
  return entry;
}

function readLog(sessionDir: string): HistoryLine[] {
  let text: string;
  try {
    text = readFileSync(logPath(sessionDir), "utf8");
  } catch {
    return [];
  }
  const lines: HistoryLine[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    try {
      lines.push(JSON.parse(raw) as HistoryLine);
    } catch {
      // A torn last line from a crash mid-append: the change it described did not complete.
    }
  }
  return lines;
}

/** The changes not yet undone, oldest first. */
export function listFileChanges(sessionDir: string): FileChangeEntry[] {
  const lines = readLog(sessionDir);
  const undone = new Set(lines.flatMap((l) => (l.type === "undo" ? l.ids : [])));
  return lines.filter((l): l is FileChangeEntry => l.type === "change" && !undone.has(l.id));
}

/** The content a file had before a change (`before` of a FileChangeEntry); null when it did not exist. */
export function readBackup(sessionDir: string, hash: string | null): Buffer | null {
  return hash === null ? null : readFileSync(backupPath(sessionDir, hash));
}

function currentHash(filePath: string): string | null {
  try {
    return contentHash(readFileSync(filePath));
  } catch {
    return null;
  }
}

/**
 * Undoes the last `count` changes, newest first. All of them are checked before any file is
 * touched: each file must still hold what its newest change wrote, and each older change of the
 * same file must have written what the newer one replaced. Otherwise nothing changes and the
 * error says which file moved on.
 */
export function undoLastChanges(sessionDir: string, count: number): UndoReport {
  if (!Number.isInteger(count) || count < 1)
    throw new UndoRefusedError(`The number of changes to undo must be a positive integer, got ${count}.`);
  const changes = listFileChanges(sessionDir);
  const selected = changes.slice(-count).reverse();
  const expected = new Map<string, string | null>();
  for (const change of selected) {
    const now = expected.has(change.path) ? expected.get(change.path)! : currentHash(change.path);
    if (now !== change.after) {
      const first = !expected.has(change.path);
      throw new UndoRefusedError(
        first
          ? `Refusing to undo: ${change.path} has changed since ${change.tool} wrote it at ${change.time}. Nothing was undone.`
          : `Refusing to undo: ${change.path} was changed outside Warden between two of its recorded changes. Nothing was undone.`,
      );
    }
    if (change.before && !existsSync(backupPath(sessionDir, change.before))) {
      throw new UndoRefusedError(
        `Refusing to undo: the backup of ${change.path} from ${change.time} is missing. Nothing was undone.`,
      );
    }
    expected.set(change.path, change.before);
  }

  const actions: UndoAction[] = [];
  for (const change of selected) {
    if (change.before === null) {
      if (existsSync(change.path) && statSync(change.path).isFile()) unlinkSync(change.path);
      actions.push({ path: change.path, action: "deleted", change });
    } else {
      writeFileAtomicSync(change.path, readFileSync(backupPath(sessionDir, change.before)));
      actions.push({ path: change.path, action: "restored", change });
    }
    const undo: UndoEntry = { type: "undo", time: new Date().toISOString(), ids: [change.id] };
    appendJsonLine(logPath(sessionDir), undo);
  }
  return { actions, missing: count - selected.length };
}
