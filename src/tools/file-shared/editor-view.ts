// Files as an editor shows them (ACP `fs/read_text_file` / `fs/write_text_file`, offered by the
// editor driving the session): an open buffer's unsaved text is the file's content, and a write
// lands in the buffer, where the person sees it. Read-before-write and the staleness check apply
// as on disk, judged against the editor's text: a buffer has no mtime, so the version the model
// saw is recorded as a hash of the whole text and compared with the editor's current text.
import { createHash } from "node:crypto";
import type { FileReadRecord } from "../../tool/read-file-state.js";
import type { ToolUseContext } from "../../tool/types.js";
import { normalizeLineEndings } from "./encoding.js";
import { checkFreshness, currentText, type FreshnessProblem } from "./freshness.js";

/** The editor's reader, when the editor offered to read files. */
export function editorReader(context: ToolUseContext): ((path: string) => Promise<string>) | undefined {
  return context.options.editor?.files?.readTextFile;
}

/** The editor's writer, when the editor offered to write files. */
export function editorWriter(context: ToolUseContext): ((path: string, content: string) => Promise<void>) | undefined {
  return context.options.editor?.files?.writeTextFile;
}

export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The file's text from the editor, line endings normalised as disk reads are. */
export async function readThroughEditor(read: (path: string) => Promise<string>, filePath: string): Promise<string> {
  try {
    return normalizeLineEndings(await read(filePath));
  } catch (error) {
    throw new Error(`The editor could not read ${filePath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Staleness against the editor's current text (the counterpart of checkFreshness for disk). */
export function editorFreshness(record: FileReadRecord | undefined, current: string): FreshnessProblem | undefined {
  if (!record || record.isPartialView) return { kind: "not-read" };
  // A view read through the editor names the version it came from; a write's record is the whole text.
  const same = record.sourceHash !== undefined ? record.sourceHash === textHash(current) : record.content === current;
  return same ? undefined : { kind: "modified" };
}

export interface FileView {
  problem?: FreshnessProblem;
  /** The file's current text as the model must match against it (the editor's, or the disk's). */
  text(): string;
}

/**
 * What a writing tool's validation checks an existing file against: the editor's text when the
 * editor reads files, else the disk (mtime first, content when the mtime moved).
 */
export async function currentFileView(context: ToolUseContext, filePath: string, mtimeMs: number): Promise<FileView> {
  const record = context.readFileState.get(filePath);
  const read = editorReader(context);
  if (read) {
    const text = await readThroughEditor(read, filePath);
    return { problem: editorFreshness(record, text), text: () => text };
  }
  let cached: string | undefined;
  const text = () => {
    cached ??= currentText(filePath);
    return cached;
  };
  return { problem: checkFreshness(record, mtimeMs, text), text };
}
