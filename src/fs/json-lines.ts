// Appending to a JSON-lines file (a transcript, the file-history log) that a process killed while
// writing may have left with a torn last line: a line appended straight after it would join it,
// and every later reader would drop both as one line that is not JSON.
import { appendFileSync, closeSync, fstatSync, openSync, readSync } from "node:fs";

/** True when the file is missing, empty, or ends with a newline: a new line can follow as is. */
export function endsWithNewline(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return true;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** Appends `value` as one JSON line, on a line of its own even after a torn one. */
export function appendJsonLine(path: string, value: unknown): void {
  appendFileSync(path, `${endsWithNewline(path) ? "" : "\n"}${JSON.stringify(value)}\n`);
}
