// What the model is shown after a change: a unified diff of the changed region with a few lines
// of context, never the whole file. Only the region around the change is diffed, so one edit in a
// 50 MB file costs about as much as one edit in a small file.
import { structuredPatch } from "diff";

const CONTEXT_LINES = 3;
/** Beyond this a diff is not worth its tokens: the result says how much changed instead. */
const MAX_DIFF_REGION_CHARS = 200_000;
const MAX_SNIPPET_LINES = 120;

export interface ChangedRange {
  /** Start of the changed text in the old content. */
  start: number;
  /** End (exclusive) of the changed text in the old content. */
  oldEnd: number;
}

/** A unified diff of `oldContent` → `newContent`, computed only over the lines around `range`. */
export function diffAroundRange(oldContent: string, newContent: string, range: ChangedRange): string {
  const regionStart = lineStartBefore(oldContent, range.start, CONTEXT_LINES);
  const oldRegionEnd = lineEndAfter(oldContent, Math.max(range.start, range.oldEnd - 1), CONTEXT_LINES);
  const delta = newContent.length - oldContent.length;
  const newRegionEnd = Math.min(newContent.length, oldRegionEnd + delta);
  const oldRegion = oldContent.slice(regionStart, oldRegionEnd);
  const newRegion = newContent.slice(regionStart, newRegionEnd);
  if (oldRegion.length + newRegion.length > MAX_DIFF_REGION_CHARS) {
    return `(diff omitted: the change spans ${oldRegion.length} characters)`;
  }
  const firstLine = countNewlines(oldContent, 0, regionStart) + 1;
  return formatPatch(oldRegion, newRegion, firstLine);
}

/** A unified diff of two whole texts (Write over an existing file). */
export function diffWhole(oldContent: string, newContent: string): string {
  if (oldContent.length + newContent.length > MAX_DIFF_REGION_CHARS) {
    return "(diff omitted: the file is too large to diff in a result)";
  }
  return formatPatch(oldContent, newContent, 1);
}

function formatPatch(oldText: string, newText: string, firstLine: number): string {
  const patch = structuredPatch("a", "b", withFinalNewline(oldText), withFinalNewline(newText), undefined, undefined, {
    context: CONTEXT_LINES,
  });
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldStart + firstLine - 1;
    const newStart = hunk.newStart + firstLine - 1;
    out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) if (!line.startsWith("\\")) out.push(line);
  }
  if (out.length > MAX_SNIPPET_LINES) {
    const hidden = out.length - MAX_SNIPPET_LINES;
    return `${out.slice(0, MAX_SNIPPET_LINES).join("\n")}\n... (${hidden} more diff lines)`;
  }
  return out.join("\n");
}

// The regions are cut at line boundaries; a region that does not end in a newline would show a
// spurious "no newline" change, so both sides get one.
function withFinalNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

function lineStartBefore(text: string, index: number, extraLines: number): number {
  let pos = text.lastIndexOf("\n", index - 1);
  for (let i = 0; i < extraLines && pos > 0; i++) pos = text.lastIndexOf("\n", pos - 1);
  return pos < 0 ? 0 : pos + 1;
}

/** End of the line holding `lastIndex` plus `extraLines` more lines (just past their newline). */
function lineEndAfter(text: string, lastIndex: number, extraLines: number): number {
  let pos = text.indexOf("\n", lastIndex);
  for (let i = 0; i < extraLines && pos >= 0; i++) pos = text.indexOf("\n", pos + 1);
  return pos < 0 ? text.length : pos + 1;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  let pos = text.indexOf("\n", from);
  while (pos >= 0 && pos < to) {
    count++;
    pos = text.indexOf("\n", pos + 1);
  }
  return count;
}
