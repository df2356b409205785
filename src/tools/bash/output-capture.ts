// Collects a command's output without letting a chatty command exhaust memory: output is kept in
// memory up to a few MB, then everything goes to a file in the session folder and only the head
// and tail stay in memory for the model's view.

import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

export const MEMORY_LIMIT_BYTES = 4 * 1024 * 1024;
/** Beyond this nothing more is kept, even on disk (a runaway `yes` must not fill the disk). */
export const DISK_LIMIT_BYTES = 64 * 1024 * 1024;
const SPILLED_HEAD_BYTES = 64 * 1024;
const SPILLED_TAIL_BYTES = 64 * 1024;
const RECENT_BYTES = 8 * 1024;

export interface CapturedOutput {
  /** All the output, or (when spilled) a note, the head and the tail. */
  text: string;
  totalBytes: number;
  totalLines: number;
  /** Where the complete output was written when it outgrew memory. */
  fullOutputPath?: string;
  /** True when even the file stopped at DISK_LIMIT_BYTES. */
  truncated: boolean;
  /** The bytes as they came, when they fitted in memory (image output is recognised from them). */
  raw?: Buffer;
}

export interface OutputCaptureOptions {
  spillDir: string;
  memoryLimitBytes?: number;
  diskLimitBytes?: number;
}

export class OutputCapture {
  private chunks: Buffer[] = [];
  private bufferedBytes = 0;
  private head: Buffer | undefined;
  private readonly tail = new TailWindow(SPILLED_TAIL_BYTES);
  private readonly recent = new TailWindow(RECENT_BYTES);
  private spillFd: number | undefined;
  private spillPath: string | undefined;
  private writtenToDisk = 0;
  private totalBytes = 0;
  private newlines = 0;
  private lastByte = 0x0a;
  private readonly memoryLimit: number;
  private readonly diskLimit: number;

  constructor(private readonly options: OutputCaptureOptions) {
    this.memoryLimit = options.memoryLimitBytes ?? MEMORY_LIMIT_BYTES;
    this.diskLimit = options.diskLimitBytes ?? DISK_LIMIT_BYTES;
  }

  write(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.totalBytes += chunk.length;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) this.newlines++;
    this.lastByte = chunk[chunk.length - 1]!;
    this.recent.push(chunk);

    if (this.spillFd === undefined) {
      this.chunks.push(chunk);
      this.bufferedBytes += chunk.length;
      if (this.bufferedBytes > this.memoryLimit) this.spill();
      return;
    }
    this.tail.push(chunk);
    this.writeToDisk(chunk);
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get lines(): number {
    return this.newlines + (this.totalBytes > 0 && this.lastByte !== 0x0a ? 1 : 0);
  }

  /** The last few lines, for progress reports while the command runs. */
  recentLines(maxLines = 5): string {
    const lines = this.recent.bytes().toString("utf8").replace(/\s+$/, "").split("\n");
    return lines.slice(-maxLines).join("\n");
  }

  finish(): CapturedOutput {
    const totalLines = this.lines;
    if (this.spillFd === undefined) {
      const raw = Buffer.concat(this.chunks);
      return { text: raw.toString("utf8"), totalBytes: this.totalBytes, totalLines, truncated: false, raw };
    }
    closeSync(this.spillFd);
    this.spillFd = undefined;
    const truncated = this.writtenToDisk < this.totalBytes;
    const note =
      `[Output too large to show in full: ${this.totalBytes} bytes, ${totalLines} lines. ` +
      `${truncated ? `The first ${this.writtenToDisk} bytes were` : "The complete output was"} saved to ${this.spillPath}; ` +
      "read or grep that file for the parts you need. The beginning and the end follow.]";
    const text = `${note}\n${this.head!.toString("utf8")}\n\n[... middle of the output omitted ...]\n\n${this.tail.bytes().toString("utf8")}`;
    return { text, totalBytes: this.totalBytes, totalLines, fullOutputPath: this.spillPath, truncated };
  }

  private spill(): void {
    mkdirSync(this.options.spillDir, { recursive: true });
    this.spillPath = join(this.options.spillDir, `bash-output-${randomUUID()}.txt`);
    this.spillFd = openSync(this.spillPath, "w", 0o600);
    const buffered = Buffer.concat(this.chunks);
    this.chunks = [];
    this.bufferedBytes = 0;
    this.head = Buffer.from(buffered.subarray(0, SPILLED_HEAD_BYTES));
    this.tail.push(buffered);
    this.writeToDisk(buffered);
  }

  private writeToDisk(data: Buffer): void {
    const room = this.diskLimit - this.writtenToDisk;
    if (room <= 0 || this.spillFd === undefined) return;
    const slice = data.length > room ? data.subarray(0, room) : data;
    writeSync(this.spillFd, slice);
    this.writtenToDisk += slice.length;
  }
}

/** The last `size` bytes of a stream, kept as chunks so that appending never copies. */
class TailWindow {
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(private readonly size: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    while (this.chunks.length > 1 && this.length - this.chunks[0]!.length >= this.size) {
      this.length -= this.chunks.shift()!.length;
    }
  }

  bytes(): Buffer {
    const all = Buffer.concat(this.chunks);
    return all.length > this.size ? all.subarray(all.length - this.size) : all;
  }
}
