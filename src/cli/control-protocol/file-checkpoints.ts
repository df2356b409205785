// File checkpoints for the Agent SDK's rewindFiles(userMessageId) (enableFileCheckpointing): each
// user message marks where the session's file history stood when it arrived; rewinding to it undoes
// every change recorded since, with the same checks as `warden undo` (nothing is touched when a file
// was changed outside Warden since). Loaded only when checkpointing is on.
import { readFileSync } from "node:fs";
import { structuredPatch } from "diff";
import { listFileChanges, readBackup, undoLastChanges } from "../../session/file-history.js";

export interface RewindResult {
  canRewind: boolean;
  error?: string;
  filesChanged?: string[];
  /** Lines added to the files since the checkpoint (what rewinding takes out), and lines removed. */
  insertions?: number;
  deletions?: number;
}

export class FileCheckpoints {
  /** Per user message: the ids of the changes already recorded when it arrived. */
  private readonly marks = new Map<string, Set<string>>();

  constructor(private readonly sessionDir: () => string) {}

  mark(userMessageId: string): void {
    this.marks.set(userMessageId, new Set(listFileChanges(this.sessionDir()).map((change) => change.id)));
  }

  rewind(userMessageId: string, dryRun: boolean): RewindResult {
    const before = this.marks.get(userMessageId);
    if (!before) return { canRewind: false, error: `no checkpoint for user message ${userMessageId}` };
    const dir = this.sessionDir();
    // Changes after the mark are the newest ones not yet undone: a tail of the history.
    const since = listFileChanges(dir).filter((change) => !before.has(change.id));
    const { files, insertions, deletions } = linesChanged(dir, since);
    const stats = { filesChanged: files, insertions, deletions };
    if (dryRun || since.length === 0) return { canRewind: true, ...stats };
    try {
      undoLastChanges(dir, since.length);
    } catch (error) {
      return { canRewind: false, error: error instanceof Error ? error.message : String(error), ...stats };
    }
    return { canRewind: true, ...stats };
  }
}

/**
 * Lines added and removed by `changes` (a tail of the session's file history): each file as it was
 * before its first change, compared with the file now.
 */
export function linesChanged(
  dir: string,
  changes: ReturnType<typeof listFileChanges>,
): { files: string[]; insertions: number; deletions: number } {
  const firstByPath = new Map<string, (typeof changes)[number]>();
  for (const change of changes) if (!firstByPath.has(change.path)) firstByPath.set(change.path, change);
  let insertions = 0;
  let deletions = 0;
  for (const [path, change] of firstByPath) {
    const then = readBackup(dir, change.before)?.toString("utf8") ?? "";
    let now = "";
    try {
      now = readFileSync(path, "utf8");
    } catch {
      // Deleted since: every line it had goes.
    }
    for (const hunk of structuredPatch(path, path, then, now).hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith("+")) insertions++;
        else if (line.startsWith("-")) deletions++;
      }
    }
  }
  return { files: [...firstByPath.keys()], insertions, deletions };
}

/** Lines added and removed by every file change the session recorded. */
export function sessionLinesChanged(dir: string): { insertions: number; deletions: number } {
  const { insertions, deletions } = linesChanged(dir, listFileChanges(dir));
  return { insertions, deletions };
}
