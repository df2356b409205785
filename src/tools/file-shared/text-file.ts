// Whole-file text reads and writes for the writing tools (Write, Edit, NotebookEdit). Everything
// here is synchronous: it runs inside the critical section between the staleness check and the
// write (see freshness.ts).
import { readFileSync, statSync } from "node:fs";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { decodeText, detectEncoding, encodeText, normalizeLineEndings, type TextEncoding } from "./encoding.js";

/** Larger files are refused by the writing tools: they would not fit in memory twice. */
export const MAX_EDIT_FILE_SIZE = 1024 * 1024 * 1024;

export interface TextFileSnapshot {
  /** Raw bytes as on disk (kept for the file-history backup). */
  bytes: Buffer;
  /** Decoded text with line endings normalised to LF. */
  content: string;
  encoding: TextEncoding;
  mtimeMs: number;
}

export class FileTooLargeError extends Error {
  constructor(filePath: string, size: number) {
    super(
      `${filePath} is ${formatBytes(size)}, over the ${formatBytes(MAX_EDIT_FILE_SIZE)} limit for file edits. Change it with a script run through Bash instead.`,
    );
  }
}

export function readTextFileSync(filePath: string): TextFileSnapshot {
  const stats = statSync(filePath);
  if (stats.size > MAX_EDIT_FILE_SIZE) throw new FileTooLargeError(filePath, stats.size);
  const bytes = readFileSync(filePath);
  const encoding = detectEncoding(bytes);
  return { bytes, content: normalizeLineEndings(decodeText(bytes, encoding)), encoding, mtimeMs: stats.mtimeMs };
}

/**
 * Writes text in the given encoding, atomically; returns the new mtime. `preEncoded` (the exact
 * bytes of `content` in `encoding`) lets a caller that spliced the old bytes skip re-encoding.
 */
export function writeTextFileSync(
  filePath: string,
  content: string,
  encoding: TextEncoding,
  preEncoded?: Buffer,
): { bytes: Buffer; mtimeMs: number } {
  const bytes = preEncoded ?? encodeText(content, encoding);
  if (bytes.length > MAX_EDIT_FILE_SIZE) throw new FileTooLargeError(filePath, bytes.length);
  writeFileAtomicSync(filePath, bytes);
  return { bytes, mtimeMs: statSync(filePath).mtimeMs };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value >= 10 ? 0 : 1)} ${units[unit]}`;
}
