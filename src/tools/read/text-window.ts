// Reads a window of lines from a text file without reading more of it than needed: chunks are
// decoded as they arrive and reading stops once the window is complete. A 2,000-line window near
// the start of a 1 GB file reads a few hundred KB, not 1 GB.
import { open } from "node:fs/promises";
import type { TextEncoding } from "../file-shared/encoding.js";

const CHUNK_BYTES = 64 * 1024;

export interface LineWindow {
  lines: string[];
  /** 1-based number of the first returned line. */
  startLine: number;
  /** Set when the file was read to its end: its total line count. */
  totalLines?: number;
  /** True when lines follow the window. */
  hasMore: boolean;
  /** True when the file was read to its end and its last line ended with a newline. */
  endsWithNewline: boolean;
  /** Lines cut at maxLineChars. */
  truncatedLines: number;
  bytesRead: number;
}

export async function readLineWindow(
  filePath: string,
  options: { offset: number; limit: number; maxLineChars: number; encoding: TextEncoding; signal?: AbortSignal },
): Promise<LineWindow> {
  const { offset, limit, maxLineChars, encoding } = options;
  const skipBytes = encoding === "utf16le" ? 2 : encoding === "utf8bom" ? 3 : 0;
  const decoder = new TextDecoder(encoding === "utf16le" ? "utf-16le" : "utf-8");
  const handle = await open(filePath, "r");
  const lines: string[] = [];
  let truncatedLines = 0;
  let lineNumber = 0;
  let pending = "";
  let bytesRead = 0;
  let position = skipBytes;
  let reachedEnd = false;
  let hasMore = false;
  let discardingRestOfLine = false;
  let endsWithNewline = false;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);

  const takeLine = (raw: string): boolean => {
    lineNumber++;
    if (lineNumber < offset) return true;
    if (lines.length >= limit) {
      hasMore = true;
      return false;
    }
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.length > maxLineChars) {
      truncatedLines++;
      lines.push(`${line.slice(0, maxLineChars)}… [line cut at ${maxLineChars} characters]`);
    } else {
      lines.push(line);
    }
    return true;
  };

  try {
    let wantMore = true;
    while (wantMore) {
      options.signal?.throwIfAborted();
      const { bytesRead: n } = await handle.read(buffer, 0, CHUNK_BYTES, position);
      if (n === 0) {
        reachedEnd = true;
        break;
      }
      position += n;
      bytesRead += n;
      let text = decoder.decode(buffer.subarray(0, n), { stream: true });
      if (discardingRestOfLine) {
        const newline = text.indexOf("\n");
        if (newline < 0) continue;
        text = text.slice(newline);
        discardingRestOfLine = false;
      }
      pending += text;
      let start = 0;
      let newline = pending.indexOf("\n", start);
      while (newline >= 0) {
        if (!takeLine(pending.slice(start, newline))) {
          wantMore = false;
          break;
        }
        start = newline + 1;
        newline = pending.indexOf("\n", start);
      }
      pending = pending.slice(start);
      // A line longer than anything we would show (a minified bundle, a 1 GB line) is kept only up
      // to the cut, so memory stays bounded whatever the file holds.
      if (wantMore && pending.length > maxLineChars + 1) {
        pending = pending.slice(0, maxLineChars + 1);
        discardingRestOfLine = true;
      }
    }
    if (reachedEnd) {
      pending += decoder.decode();
      endsWithNewline = pending.length === 0 && lineNumber > 0;
      if (pending.length > 0 && !takeLine(pending)) reachedEnd = false;
    }
  } finally {
    await handle.close();
  }
  return {
    lines,
    startLine: offset,
    totalLines: reachedEnd && !hasMore ? lineNumber : undefined,
    hasMore,
    endsWithNewline: endsWithNewline && reachedEnd && !hasMore,
    truncatedLines,
    bytesRead,
  };
}

/**
 * The same window cut from text already in memory (a file's text as an editor holds it), with
 * readLineWindow's results for the same content: line counts, the final newline, cut lines.
 */
export function windowOfText(
  text: string,
  options: { offset: number; limit: number; maxLineChars: number },
): LineWindow {
  const { offset, limit, maxLineChars } = options;
  const all = text === "" ? [] : text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) all.pop();
  const start = offset - 1;
  const hasMore = all.length > start + limit;
  let truncatedLines = 0;
  const lines = all.slice(start, start + limit).map((line) => {
    if (line.length <= maxLineChars) return line;
    truncatedLines++;
    return `${line.slice(0, maxLineChars)}… [line cut at ${maxLineChars} characters]`;
  });
  return {
    lines,
    startLine: offset,
    totalLines: hasMore ? undefined : all.length,
    hasMore,
    endsWithNewline: endsWithNewline && !hasMore,
    truncatedLines,
    bytesRead: Buffer.byteLength(text),
  };
}
