// What a command may touch without a prompt. Reads must stay inside the working directories;
// writes into protected places (repository internals, agent and editor settings, shell start-up
// files) are a safety finding that even bypass mode asks about.
import * as path from "node:path";
import { pathsToCheck } from "../../fs/real-path.js";
import { isDeviceSink, resolveWordPath } from "../../shell/commands/index.js";
import type { Field } from "../../shell/words/index.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { isInsideWorkingDirectories, protectedPathReason } from "../filesystem/index.js";

const PROTECTED_DIRECTORIES = new Set([".git", ".warden", ".claude", ".vscode", ".idea", ".ssh", ".gnupg", ".husky"]);
const PROTECTED_FILES = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zprofile",
  ".zshenv",
  ".zlogin",
  ".zlogout",
  ".inputrc",
  ".gitconfig",
  ".gitmodules",
  ".gitattributes",
  ".npmrc",
  ".yarnrc",
  ".mcp.json",
  ".envrc",
  "authorized_keys",
  "crontab",
]);

/**
 * The engine's protected paths (shared with the file tools) plus a few more a shell can reach:
 * SSH and GnuPG keys, git hooks managers, system configuration. Symlinks are followed, so a
 * link inside the project cannot hide a protected target.
 */
export function isProtectedPath(absolute: string): boolean {
  return pathsToCheck(absolute).some((p) => protectedPathReason(p) !== undefined || isProtectedSpelling(p));
}

function isProtectedSpelling(absolute: string): boolean {
  const segments = absolute.split(path.sep).filter(Boolean);
  if (segments.some((s) => PROTECTED_DIRECTORIES.has(s))) return true;
  const base = segments[segments.length - 1] ?? "";
  return PROTECTED_FILES.has(base) || /^\.(bash|zsh)rc\./.test(base) || absolute.startsWith("/etc/");
}

export function isReadableWithoutPrompt(word: Field, cwd: string | undefined, context: ToolPermissionContext): boolean {
  if (word.literal && (word.value === "-" || isDeviceSink(word.value) || word.value === "/dev/stdin")) return true;
  const absolute = resolveWordPath(word, cwd);
  return absolute !== undefined && isInsideWorkingDirectories(absolute, context);
}
