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

/**
 * Collects the window from text fed in pieces (decoded chunks of the file, in order), keeping only
 * what the window needs: lines before it are counted, lines after it stop the reading, and a line
 * longer than anything we would show is kept only up to the cut, so memory stays bounded whatever
 * the file holds.
 */
class LineCollector {
  readonly lines: string[] = [];
  truncatedLines = 0;
  lineNumber = 0;
  hasMore = false;
  private pending = "";
  private discardingRestOfLine = false;

  constructor(private readonly options: { offset: number; limit: number; maxLineChars: number }) {}

  /** Takes the next piece of text; false once the window is complete (read no further). */
  push(piece: string): boolean {
    let text = piece;
    if (this.discardingRestOfLine) {
      const newline = text.indexOf("\n");
      if (newline < 0) return true;
      text = text.slice(newline);
      this.discardingRestOfLine = false;
    }
    this.pending += text;
    let start = 0;
    let newline = this.pending.indexOf("\n", start);
    while (newline >= 0) {
      if (!this.takeLine(this.pending.slice(start, newline))) return false;
      start = newline + 1;
      newline = this.pending.indexOf("\n", start);
    }
    this.pending = this.pending.slice(start);
    if (this.pending.length > this.options.maxLineChars + 1) {
      this.pending = this.pending.slice(0, this.options.maxLineChars + 1);
      this.discardingRestOfLine = true;
    }
    return true;
  }

  /** The file ended after the pieces so far (`rest`: what the decoder still held). */
  finish(rest: string, bytesRead: number): LineWindow {
    const pending = this.pending + rest;
    const endsWithNewline = pending.length === 0 && this.lineNumber > 0;
    const reachedEnd = pending.length === 0 || this.takeLine(pending);
    return this.window(reachedEnd, endsWithNewline, bytesRead);
  }

  /** The reading stopped before the end of the file. */
  stopped(bytesRead: number): LineWindow {
    return this.window(false, false, bytesRead);
  }

  private window(reachedEnd: boolean, endsWithNewline: boolean, bytesRead: number): LineWindow {
    return {
      lines: this.lines,
      startLine: this.options.offset,
      totalLines: reachedEnd && !this.hasMore ? this.lineNumber : undefined,
      hasMore: this.hasMore,
      endsWithNewline: endsWithNewline && reachedEnd && !this.hasMore,
      truncatedLines: this.truncatedLines,
      bytesRead,
    };
  }

  private takeLine(raw: string): boolean {
    this.lineNumber++;
    if (this.lineNumber < this.options.offset) return true;
    if (this.lines.length >= this.options.limit) {
      this.hasMore = true;
      return false;
    }
    const { maxLineChars } = this.options;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.length > maxLineChars) {
      this.truncatedLines++;
      this.lines.push(`${line.slice(0, maxLineChars)}… [line cut at ${maxLineChars} characters]`);
    } else {
      this.lines.push(line);
    }
    return true;
  }
}

interface WindowOptions {
  offset: number;
  limit: number;
  maxLineChars: number;
  encoding: TextEncoding;
}

function newDecoder(encoding: TextEncoding): InstanceType<typeof TextDecoder> {
  return new TextDecoder(encoding === "utf16le" ? "utf-16le" : "utf-8");
}

/** The byte-order mark's length, skipped before decoding. */
function bomBytes(encoding: TextEncoding): number {
  return encoding === "utf16le" ? 2 : encoding === "utf8bom" ? 3 : 0;
}

export async function readLineWindow(
  filePath: string,
  options: WindowOptions & { signal?: AbortSignal },
): Promise<LineWindow> {
  const decoder = newDecoder(options.encoding);
  const skipBytes = bomBytes(options.encoding);
  const collector = new LineCollector(options);
  const handle = await open(filePath, "r");
  let bytesRead = 0;
  let position = skipBytes;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead: n } = await handle.read(buffer, 0, CHUNK_BYTES, position);
      if (n === 0) return collector.finish(decoder.decode(), bytesRead);
      position += n;
      bytesRead += n;
      if (!collector.push(decoder.decode(buffer.subarray(0, n), { stream: true }))) return collector.stopped(bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * One decoder per encoding for whole files in memory, made at the first such file: a TextDecoder
 * opens its converter at its first decode (~0.1 ms of CPU each), which a response of 8 Reads paid
 * 8 times on the way to its follow-up request. Shared safely because each use is one synchronous,
 * non-streaming decode, which leaves the decoder as new (the streamed reads keep their own).
 */
const wholeFileDecoders = new Map<TextEncoding, InstanceType<typeof TextDecoder>>();

/**
 * readLineWindow's window of a whole file already in memory (`bytes`, BOM included): the same
 * lines, counts and cuts, for a small file read in one go.
 */
export function lineWindowOfBytes(bytes: Uint8Array, options: WindowOptions): LineWindow {
  let decoder = wholeFileDecoders.get(options.encoding);
  if (decoder === undefined) {
    decoder = newDecoder(options.encoding);
    wholeFileDecoders.set(options.encoding, decoder);
  }
  const collector = new LineCollector(options);
  const body = bytes.subarray(bomBytes(options.encoding));
  // Decoded whole: an incomplete sequence at the very end becomes U+FFFD as a streamed read's
  // final flush makes it, and it is the same text the collector would have been given in two parts.
  if (!collector.push(decoder.decode(body))) return collector.stopped(body.length);
  return collector.finish("", body.length);
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
