// The critical section every writing tool goes through. Between the moment the tool checks that
// the file is still what the model read and the moment the new content is on disk there is no
// await: every step is a synchronous fs call. An await there would let another tool call (a
// concurrent agent, a hook) change the file in the gap, and the write would silently destroy that
// change (time-of-check to time-of-use). The section is milliseconds of blocking I/O; that is
// the price of never losing an edit.
import { recordFileChangeSync } from "../../session/file-history.js";
import type { ToolUseContext } from "../../tool/types.js";
import type { TextEncoding } from "./encoding.js";
import { checkFreshness, modifiedMessage, notReadMessage, recordWrite } from "./freshness.js";
import { type TextFileSnapshot, readTextFileSync, writeTextFileSync } from "./text-file.js";

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
}

export class StaleFileError extends Error {}

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
): CommittedChange {
  // ---- critical section: no await from here to the end of the function ----
  const before = readIfExistsSync(filePath);
  if (before) {
    const problem = checkFreshness(context.readFileState.get(filePath), before.mtimeMs, () => before.content);
    if (problem?.kind === "not-read") throw new StaleFileError(notReadMessage(filePath));
    if (problem?.kind === "modified") throw new StaleFileError(modifiedMessage(filePath));
  }
  const planned = plan(before);
  const written = writeTextFileSync(filePath, planned.content, planned.encoding, planned.bytes);
  recordFileChangeSync(context.options.sessionDir, {
    tool: toolName,
    path: filePath,
    beforeBytes: before ? before.bytes : null,
    afterBytes: written.bytes,
  });
  recordWrite(context.readFileState, filePath, planned.content, written.mtimeMs);
  return { before, content: planned.content, mtimeMs: written.mtimeMs };
}
