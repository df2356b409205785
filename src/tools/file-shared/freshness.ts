// Read-before-write: a writing tool may change an existing file only if the model has read it in
// this session and it has not changed on disk since. Otherwise the model would overwrite edits
// made by the user, a linter or another agent that it has never seen.
import type { FileReadRecord, ReadFileState } from "../../tool/read-file-state.js";
import { readTextFileSync } from "./text-file.js";

export type FreshnessProblem = { kind: "not-read" } | { kind: "modified" };

/**
 * Checks the current state of a file against what the model last read. mtime decides first;
 * when the mtime differs but the model had read the whole file and the content is byte-for-byte
 * what it saw, the file counts as unchanged (sync tools, antivirus and `touch` move mtimes
 * without changing content, and refusing then would only make the model read again).
 */
export function checkFreshness(
  record: FileReadRecord | undefined,
  currentMtimeMs: number,
  currentContent: () => string,
): FreshnessProblem | undefined {
  if (!record || record.isPartialView) return { kind: "not-read" };
  // Any difference counts, not only a newer mtime: a file put back from an archive or a backup
  // can carry an older mtime than the version the model read.
  if (currentMtimeMs === record.timestamp) return undefined;
  const fullRead = record.offset === undefined || (record.offset === 1 && record.limit === undefined);
  if (fullRead && currentContent() === record.content) return undefined;
  return { kind: "modified" };
}

export function notReadMessage(filePath: string): string {
  return `File has not been read yet. Read ${filePath} with the Read tool first, then retry the change.`;
}

export function modifiedMessage(filePath: string): string {
  return `File has been modified since it was last read (by the user, a linter or another process). Read ${filePath} again, then retry the change against its current content.`;
}

/** What the model now knows of a file it has just written: the whole new content. */
export function recordWrite(readFileState: ReadFileState, filePath: string, content: string, mtimeMs: number): void {
  readFileState.set(filePath, { content, timestamp: mtimeMs });
}

/** The file's text as the model would see it, for the content comparison in validation. */
export function currentText(filePath: string): string {
  try {
    return readTextFileSync(filePath).content;
  } catch {
    return "\0unreadable";
  }
}
