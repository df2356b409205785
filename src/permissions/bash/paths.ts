// What a command may touch without a prompt. Reads must stay inside the working directories;
// writes into protected places (repository internals, agent and editor settings, shell start-up
// files) are a safety finding that even bypass mode asks about.
import * as path from "node:path";
import { pathsToCheck } from "../../fs/real-path.js";
import { isDeviceSink, resolveWordPath } from "../../shell/commands/index.js";
import type { Field } from "../../shell/words/index.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { isInsideWorkingDirectories, protectedPathReason } from "../filesystem/index.js";

// Only what the shell adds to the engine's list (protectedPathReason covers the rest): keys a
// command can plant or steal, files package managers and git read for settings that run code, the
// scheduler, and system configuration.
const SHELL_PROTECTED_DIRECTORIES = new Set([".ssh", ".gnupg"]);
const SHELL_PROTECTED_FILES = new Set([".gitattributes", ".npmrc", ".yarnrc", "authorized_keys", "crontab"]);

/**
 * The engine's protected paths (shared with the file tools) plus the few more a shell can reach.
 * Symlinks are followed, so a link inside the project cannot hide a protected target.
 */
export function isProtectedPath(absolute: string): boolean {
  return pathsToCheck(absolute).some((p) => protectedPathReason(p) !== undefined || isShellProtected(p));
}

function isShellProtected(absolute: string): boolean {
  const segments = absolute.split(path.sep).filter(Boolean);
  if (segments.some((s) => SHELL_PROTECTED_DIRECTORIES.has(s))) return true;
  const base = segments[segments.length - 1] ?? "";
  return SHELL_PROTECTED_FILES.has(base) || /^\.(bash|zsh)rc\./.test(base) || absolute.startsWith("/etc/");
}

/**
 * Whether writing `absolute` asks even in bypass mode: a protected path, or a place in a folder the
 * session is confined from (an isolated agent's parent checkout) outside its working directories.
 */
export function isProtectedWrite(absolute: string, context: ToolPermissionContext | undefined): boolean {
  if (isProtectedPath(absolute)) return true;
  const confined = context?.confinedFrom ?? [];
  if (confined.length === 0 || (context && isInsideWorkingDirectories(absolute, context))) return false;
  return pathsToCheck(absolute).some((p) => confined.some((root) => isWithin(root, p)));
}

function isWithin(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
}

export function isReadableWithoutPrompt(word: Field, cwd: string | undefined, context: ToolPermissionContext): boolean {
  if (word.literal && (word.value === "-" || isDeviceSink(word.value) || word.value === "/dev/stdin")) return true;
  const absolute = resolveWordPath(word, cwd);
  return absolute !== undefined && isInsideWorkingDirectories(absolute, context);
}
