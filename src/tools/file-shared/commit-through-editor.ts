// A writing tool's change, through the editor when the editor offered to write files, else the
// disk's synchronous critical section (commit-change.ts). Through the editor the steps are the
// same (current text, staleness check, plan, file-history backup, write, readFileState), but the
// editor answers asynchronously, so the gap between check and write cannot be closed the way
// the disk path closes it: changes to one path are queued instead, so two calls of this session
// (a subagent's and the main loop's) never interleave on a file. A keystroke in the editor within
// that gap is the one change this cannot see.
import { existsSync, statSync } from "node:fs";
import { backupBeforeChangeSync, logFileChangeSync } from "../../session/file-history.js";
import type { ToolUseContext } from "../../tool/types.js";
import {
  type CommitOptions,
  type CommittedChange,
  commitFileChangeSync,
  type PlannedContent,
  StaleFileError,
} from "./commit-change.js";
import { editorFreshness, editorReader, editorWriter, readThroughEditor } from "./editor-view.js";
import { encodeText } from "./encoding.js";
import { checkFreshness, modifiedMessage, notReadMessage, recordWrite } from "./freshness.js";
import { readTextFileSync, type TextFileSnapshot } from "./text-file.js";

/** The change queued last for each path; a new one starts when it has settled. */
const queues = new Map<string, Promise<unknown>>();

function queued<T>(filePath: string, run: () => Promise<T>): Promise<T> {
  const previous = queues.get(filePath) ?? Promise.resolve();
  const next = previous.then(run, run);
  const settled = next.catch(() => undefined);
  queues.set(filePath, settled);
  void settled.then(() => {
    if (queues.get(filePath) === settled) queues.delete(filePath);
  });
  return next;
}

/** Commits through the editor when it writes files, else on disk. `plan` is as for commitFileChangeSync. */
export async function commitFileChange(
  toolName: string,
  filePath: string,
  context: ToolUseContext,
  plan: (current: TextFileSnapshot | undefined) => PlannedContent,
  options: CommitOptions = {},
): Promise<CommittedChange> {
  const write = editorWriter(context);
  if (!write) return commitFileChangeSync(toolName, filePath, context, plan, options);
  return queued(filePath, () => commitThroughEditor(toolName, filePath, context, plan, write, options));
}

async function commitThroughEditor(
  toolName: string,
  filePath: string,
  context: ToolUseContext,
  plan: (current: TextFileSnapshot | undefined) => PlannedContent,
  write: (path: string, content: string) => Promise<void>,
  options: CommitOptions,
): Promise<CommittedChange> {
  // Whether the file exists, and its encoding, are the disk's to say; its text is the editor's
  // when the editor reads files (an open buffer with unsaved changes is what the model saw).
  const disk = existsSync(filePath) ? readTextFileSync(filePath) : undefined;
  const read = editorReader(context);
  let before = disk;
  if (disk && read) {
    const text = await readThroughEditor(read, filePath);
    before = { ...disk, content: text, bytes: encodeText(text, disk.encoding) };
  }
  if (before && options.requireRead !== false) {
    const record = context.readFileState.get(filePath);
    const problem = read
      ? editorFreshness(record, before.content)
      : checkFreshness(record, before.mtimeMs, () => before.content);
    if (problem?.kind === "not-read") throw new StaleFileError(notReadMessage(filePath));
    if (problem?.kind === "modified") throw new StaleFileError(modifiedMessage(filePath));
  }
  const planned = plan(before);
  // The backup comes first: if it cannot be kept, the file is not touched. What is backed up is
  // the text the change was made to, so undo puts back what the person had in the editor.
  const sessionDir = context.options.sessionDir;
  const beforeHash = backupBeforeChangeSync(sessionDir, before ? before.bytes : null);
  try {
    await write(filePath, planned.content);
  } catch (error) {
    throw new Error(
      `The editor could not write ${filePath}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // The editor may keep the change in its buffer before saving it: the disk's mtime is recorded
  // when there is one, so the on-disk change reminder does not take the save for someone else's.
  const mtimeMs = statSync(filePath, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
  recordWrite(context.readFileState, filePath, planned.content, mtimeMs);
  let historyWarning: string | undefined;
  try {
    const afterBytes = encodeText(planned.content, planned.encoding);
    logFileChangeSync(sessionDir, { tool: toolName, path: filePath, before: beforeHash, afterBytes });
  } catch (error) {
    historyWarning = `The change was made, but could not be recorded for undo: ${(error as Error).message}`;
  }
  return { before, content: planned.content, mtimeMs, historyWarning };
}
