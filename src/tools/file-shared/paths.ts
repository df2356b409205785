// Path handling shared by the file tools: a path the model names is made absolute once, against
// the session's working directory (src/tool/working-directory.ts: where the shell is), as Claude
// Code does; `~` is expanded; device files that never end or wait for a terminal are refused.
// Every check and the call itself see the absolute path, `..` resolved, so `../secrets/key` is
// judged where it leads, never as the text it was spelled with.
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { resolvedPath } from "../../fs/resolved-path.js";

export type PathCheck = { ok: true; path: string } | { ok: false; message: string };

/** Expands `~`, resolves a relative path against `cwd`; the result is normalised (no `..` left). */
export function resolveToolPath(input: string, cwd: string, fieldName = "file_path"): PathCheck {
  const trimmed = input.trim();
  if (trimmed === "") return { ok: false, message: `${fieldName} is empty: give the path of the file.` };
  if (trimmed.includes("\0"))
    return { ok: false, message: `${fieldName} contains a NUL byte, which no file name can hold.` };
  let expanded = trimmed;
  if (expanded === "~") expanded = process.env.HOME ?? homedir();
  else if (expanded.startsWith("~/")) expanded = path.join(process.env.HOME ?? homedir(), expanded.slice(2));
  return { ok: true, path: resolvedPath(expanded, cwd) };
}

/** The resolved path, or undefined when the input is not a usable path (a tool's getPath). */
export function toolPathOrUndefined(input: string, cwd: string): string | undefined {
  const resolved = resolveToolPath(input, cwd);
  return resolved.ok ? resolved.path : undefined;
}

/**
 * `input` with its path field made absolute against `cwd` (a tool's withAbsolutePaths). A value
 * that is no usable path is left as it is, for validation to refuse with its own message.
 */
export function withAbsolutePath<Input extends Record<string, unknown>>(
  input: Input,
  field: keyof Input & string,
  cwd: string,
): Input {
  const value = input[field];
  if (typeof value !== "string") return input;
  const resolved = resolveToolPath(value, cwd, field);
  if (!resolved.ok || resolved.path === value) return input;
  return { ...input, [field]: resolved.path };
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

/**
 * For a file about to be created: the nearest existing folder on its way that is no folder but a
 * file (`notes.txt` for `notes.txt/new.md`), or undefined. Creating the file's folders would fail
 * there with a bare EEXIST or ENOTDIR; the tool says what is in the way instead.
 */
export async function fileInTheWay(filePath: string): Promise<string | undefined> {
  for (let dir = path.dirname(filePath); ; dir = path.dirname(dir)) {
    try {
      return (await stat(dir)).isDirectory() ? undefined : dir;
    } catch (error) {
      // ENOENT: not there yet, to be created; ENOTDIR: a file further up, found on the next step.
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || path.dirname(dir) === dir) return undefined;
    }
  }
}

/** What the file tools say when a file stands where a folder of the path must be. */
export function fileInTheWayMessage(filePath: string, blocker: string): string {
  return `Cannot create ${filePath}: ${blocker} is a file, not a folder.`;
}
