// Writes that can never leave a half-written file: the new bytes go to a temporary file in the
// same folder (same filesystem, so rename is atomic), are flushed to disk with fsync, and then
// replace the target with one rename. A crash or kill -9 at any moment leaves either the old file
// or the new one. Synchronous on purpose: callers run it inside their mtime critical section.
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import * as path from "node:path";

export function writeFileAtomicSync(filePath: string, data: Uint8Array): void {
  // Write through a symlink to its target, as a plain write would, instead of replacing the link.
  let target = filePath;
  try {
    target = realpathSync(filePath);
  } catch {
    // Missing file: create it at the given path.
  }
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.warden-${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", mode ?? 0o666);
  try {
    let written = 0;
    while (written < data.length) written += writeSync(fd, data, written, data.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    safeUnlink(temp);
    throw error;
  }
  closeSync(fd);
  try {
    // openSync's mode is filtered by the umask; the file must keep exactly the old permissions.
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    safeUnlink(temp);
    throw error;
  }
  syncDirectory(dir);
}

function safeUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** Makes the rename itself durable; not every filesystem allows fsync on a directory. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Best effort.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
