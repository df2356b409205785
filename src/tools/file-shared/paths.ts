// Path handling shared by the file tools: the model must name files absolutely (a relative path
// silently resolved against some directory is how edits land in the wrong file), `~` is expanded
// for convenience, and device files that never end or wait for a terminal are refused.
import { homedir } from "node:os";
import * as path from "node:path";

export type PathCheck = { ok: true; path: string } | { ok: false; message: string };

/** Expands `~` and requires an absolute path; the result is normalised (no `..` segments left). */
export function resolveToolPath(input: string, fieldName = "file_path"): PathCheck {
  const trimmed = input.trim();
  if (trimmed === "") return { ok: false, message: `${fieldName} is empty: give the absolute path of the file.` };
  if (trimmed.includes("\0"))
    return { ok: false, message: `${fieldName} contains a NUL byte, which no file name can hold.` };
  let expanded = trimmed;
  if (expanded === "~") expanded = process.env.HOME ?? homedir();
  else if (expanded.startsWith("~/")) expanded = path.join(process.env.HOME ?? homedir(), expanded.slice(2));
  if (!path.isAbsolute(expanded)) {
    return {
      ok: false,
      message: `${fieldName} must be an absolute path (for example /home/me/project/src/app.ts), not "${input}". Use an absolute path.`,
    };
  }
  return { ok: true, path: path.resolve(expanded) };
}

/** The resolved path, or undefined when the input is not a usable path (a tool's getPath). */
export function toolPathOrUndefined(input: string): string | undefined {
  const resolved = resolveToolPath(input);
  return resolved.ok ? resolved.path : undefined;
}

// Reading these blocks forever (/dev/zero, /dev/random), waits on a terminal (/dev/tty, stdin) or
// consumes the agent's own standard streams.
const BLOCKED_DEVICE_PATHS = new Set([
  "/dev/zero",
  "/dev/random",
  "/dev/urandom",
  "/dev/full",
  "/dev/stdin",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/tty",
  "/dev/console",
  "/dev/fd/0",
  "/dev/fd/1",
  "/dev/fd/2",
]);

export function isBlockedDevicePath(absolutePath: string): boolean {
  if (BLOCKED_DEVICE_PATHS.has(absolutePath)) return true;
  return /^\/proc\/(?:self|thread-self|\d+)\/fd\/[0-2]$/.test(absolutePath);
}

/** Shorter paths in results save tokens; paths outside cwd stay absolute. */
export function displayPath(absolutePath: string, cwd: string): string {
  const rel = path.relative(cwd, absolutePath);
  return rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? absolutePath : rel;
}
