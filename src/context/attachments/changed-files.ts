// `edited_text_file`: a file the model read has changed on disk since (the user edited it, a
// formatter ran, a Bash command rewrote it). The model is shown what changed, so it does not work
// from, or overwrite, a version that no longer exists. Only files the model has read are watched
// (what the session's ReadFileState holds, at most its 100 most recent), with one stat each per
// request. When the whole change was shown, the model's record is brought up to date, so an Edit
// need not re-read the file; a change too large to show, or to a file it read only in part, asks it
// to read the file again instead.
import { readFileSync, statSync } from "node:fs";
import { structuredPatch } from "diff";
import type { FileReadRecord, ReadFileState } from "../../tool/read-file-state.js";
import type { AttachmentItem, AttachmentSource } from "../../tool/types.js";

/** A change bigger than this is described, not shown: the model reads the file if it needs it. */
const MAX_SNIPPET_LINES = 60;
const MAX_SNIPPET_CHARS = 8_000;

export function changedFilesSource(): AttachmentSource {
  // mtime last reported per file, so a change that was only described is not reported again.
  const reported = new Map<string, number>();
  return {
    kind: "edited_text_file",
    collect({ context }) {
      const state = context.readFileState;
      const items: AttachmentItem[] = [];
      for (const path of state.keys()) {
        const record = state.peek(path);
        if (!record) continue;
        const stats = statSync(path, { throwIfNoEntry: false });
        if (!stats) {
          state.delete(path);
          reported.delete(path);
          items.push({ text: `${path} was deleted since you read it. Do not rely on its old content.` });
          continue;
        }
        if (stats.mtimeMs === record.timestamp || reported.get(path) === stats.mtimeMs) continue;
        const text = describeChange(path, record, stats.mtimeMs, state);
        if (text === undefined) continue;
        reported.set(path, stats.mtimeMs);
        items.push({ text });
      }
      return items;
    },
  };
}

function describeChange(
  path: string,
  record: FileReadRecord,
  mtimeMs: number,
  state: ReadFileState,
): string | undefined {
  const partial =
    record.isPartialView || (record.offset !== undefined && record.offset !== 1) || record.limit !== undefined;
  if (partial) {
    return `${path} changed on disk since you read part of it. Read it again before relying on it or editing it.`;
  }
  let current: string;
  try {
    current = readFileSync(path, "utf8").replace(/\r\n/g, "\n");
  } catch {
    return `${path} changed on disk since you read it and can no longer be read. Do not rely on its old content.`;
  }
  if (current === record.content) {
    // Touched, not changed (a checkout, a sync tool): nothing to tell.
    state.set(path, { ...record, timestamp: mtimeMs });
    return undefined;
  }
  if (current.includes("\u0000")) {
    return `${path} changed on disk since you read it; it is no longer plain text. Read it again before editing it.`;
  }
  const snippet = diffSnippet(path, record.content, current);
  if (snippet.complete) {
    // The model has now seen every change: what it knows of the file is the current content.
    state.set(path, { content: current, timestamp: mtimeMs });
    return `${path} was changed on disk since you read it (by the user or another program). The change is intentional: take it into account and do not revert it unless asked. What changed:\n${snippet.text}`;
  }
  return `${path} was changed on disk since you read it (by the user or another program); the change is intentional. It is too large to show here (the start of it follows). Read the file again before editing it.\n${snippet.text}`;
}

/** Unified-diff hunks of old → new, cut at MAX_SNIPPET_LINES / MAX_SNIPPET_CHARS. */
export function diffSnippet(path: string, before: string, after: string): { text: string; complete: boolean } {
  const patch = structuredPatch(path, path, before, after, "", "", { context: 2 });
  const lines: string[] = [];
  let chars = 0;
  let total = 0;
  for (const hunk of patch.hunks) {
    total += 1 + hunk.lines.length;
    for (const line of [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines]) {
      if (lines.length >= MAX_SNIPPET_LINES || chars + line.length > MAX_SNIPPET_CHARS) continue;
      lines.push(line);
      chars += line.length + 1;
    }
  }
  const complete = lines.length === total;
  if (!complete) lines.push(`... (${total - lines.length} more diff lines not shown)`);
  return { text: lines.join("\n"), complete };
}
