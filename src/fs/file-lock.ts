// A small exclusive lock between processes (a lock file created with O_EXCL), for the read-change-
// write of a shared settings file: two sessions answering at once, or `warden trust` while a
// session saves a rule, must not each write back what they read and lose the other's change.
import { closeSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";

const LOCK_WAIT_MS = 5_000;
/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 30_000;

/** Runs fn while holding `lockPath`, waiting up to 5 s for another holder to finish. */
export function withFileLockSync<T>(lockPath: string, fn: () => T): T {
  mkdirSync(dirname(lockPath), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lockPath, "wx"));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(lockPath).mtimeMs > STALE_LOCK_MS) rmSync(lockPath, { force: true });
      } catch {
        // Released between our attempts.
      }
      if (Date.now() > deadline) throw new Error(`${lockPath} is held by another process; nothing was saved`);
      // A short synchronous pause: the holder only reads and renames one small file.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}
