// The critical section every writing tool goes through. Between the moment the tool checks that
// the file is still what the model read and the moment the new content is on disk there is no
// await: every step is a synchronous fs call. An await there would let another tool call (a
// concurrent agent, a hook) change the file in the gap, and the write would silently destroy that
// change (time-of-check to time-of-use). The section is milliseconds of blocking I/O; that is
// the price of never losing an edit.
import { backupBeforeChangeSync, logFileChangeSync } from "../../session/file-history.js";
import type { ToolUseContext } from "../../tool/types.js";
import type { TextEncoding } from "./encoding.js";
import { checkFreshness, modifiedMessage, notReadMessage, recordWrite } from "./freshness.js";
import { readTextFileSync, type TextFileSnapshot, writeTextFileSync } from "./text-file.js";

export interface PlannedContent {
  content: string;
  encoding: TextEncoding;
  /** The exact bytes of content in encoding, when the planner could build them cheaply. */
  bytes?: Buffer;
}

export interface CommittedChange {
  /** The file as it was just before the write; undefined when it did not exist. */
  before: TextFileSnapshot | undefined;
  content: string;
  mtimeMs: number;
  /** Set when the change is on disk but missing from the file history (undo will not see it). */
  historyWarning?: string;
}

export class StaleFileError extends Error {}

export interface CommitOptions {
  /**
   * False when the change was approved as shown (a simulated sed edit) and the planner itself
   * refuses a file that changed since: the model need not have read the file then.
   */
  requireRead?: boolean;
}

function readIfExistsSync(filePath: string): TextFileSnapshot | undefined {
  try {
    return readTextFileSync(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Reads the file, checks it against what the model read, lets `plan` compute the new content from
 * the current one, writes it atomically, backs up the old bytes in the session's file history and
 * updates readFileState, all without yielding. `plan` must be synchronous and may throw to refuse.
 */
export function commitFileChangeSync(
  toolName: string,
  filePath: string,
  context: ToolUseContext,
  plan: (current: TextFileSnapshot | undefined) => PlannedContent,
  options: CommitOptions = {},
): CommittedChange {
  // ---- critical section: no await from here to the end of the function ----
  const before = readIfExistsSync(filePath);
  if (before && options.requireRead !== false) {
    const problem = checkFreshness(context.readFileState.get(filePath), before.mtimeMs, () => before.content);
    if (problem?.kind === "not-read") throw new StaleFileError(notReadMessage(filePath));
    if (problem?.kind === "modified") throw new StaleFileError(modifiedMessage(filePath));
  }
  const planned = plan(before);
  // The backup comes first: if it cannot be kept, the file is not touched.
  const sessionDir = context.options.sessionDir;
  const beforeHash = backupBeforeChangeSync(sessionDir, before ? before.bytes : null);
  const written = writeTextFileSync(filePath, planned.content, planned.encoding, planned.bytes);
  recordWrite(context.readFileState, filePath, planned.content, written.mtimeMs);
  let historyWarning: string | undefined;
  try {
    logFileChangeSync(sessionDir, { tool: toolName, path: filePath, before: beforeHash, afterBytes: written.bytes });
  } catch (error) {
    // The file has changed; reporting failure now would make the model redo a done change.
    historyWarning = `The change was made, but could not be recorded for undo: ${(error as Error).message}`;
  }
  return { before, content: planned.content, mtimeMs: written.mtimeMs, historyWarning };
}

/** Appends the history warning, if any, to a writing tool's result text. */
export function withHistoryWarning(text: string, warning: string | undefined): string {
  return warning ? `${text}\n\nWarning: ${warning}` : text;
}
