// What a subcommand reads and writes: the process's own streams when `warden` runs it, and
// streams of a test's or a host's choosing when the command is called in process (the same code
// path, without a process of its own to start).
import type { Readable } from "node:stream";

export interface CommandIo {
  stdin: Readable;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The directory relative paths and the default `--cwd` mean. */
  cwd: string;
}

export function processIo(): CommandIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}
