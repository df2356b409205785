// The bypass-immune safety checks on paths: no mode and no allow rule makes these writes silent.
// A write into .git/ can plant a hook that runs on the next commit; into .warden/ or .claude/ it
// can rewrite the agent's own permissions; into .vscode/ a task that runs on folder open; into a
// shell start-up file a command that runs in every future shell.
import { basename, sep } from "node:path";

const PROTECTED_DIRECTORIES = new Set([".git", ".warden", ".claude", ".vscode", ".idea"]);

const PROTECTED_FILES = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".kshrc",
  ".inputrc",
  ".gitconfig",
  ".gitmodules",
  ".ripgreprc",
  ".mcp.json",
  ".claude.json",
]);

/**
 * Why writing this absolute path needs a human, or undefined. Names are compared in lower case:
 * on a case-insensitive filesystem `.GIT/hooks` is `.git/hooks`.
 */
export function protectedPathReason(absolutePath: string): string | undefined {
  const parts = absolutePath.split(sep).map((part) => part.toLowerCase());
  const directory = parts.slice(0, -1).find((part) => PROTECTED_DIRECTORIES.has(part));
  if (directory) return `${absolutePath} is inside a ${directory}/ folder, which is protected`;
  const name = basename(absolutePath).toLowerCase();
  if (PROTECTED_DIRECTORIES.has(name)) return `${absolutePath} is a protected ${name}/ folder`;
  if (PROTECTED_FILES.has(name)) return `${absolutePath} is a protected configuration or shell start-up file`;
  if (absolutePath.toLowerCase().endsWith(`${sep}.config${sep}fish${sep}config.fish`)) {
    return `${absolutePath} is a shell start-up file`;
  }
  return undefined;
}

/**
 * Windows UNC paths (`\\server\share`, and `//server/share` as they may be spelled): opening one
 * can send the user's NTLM credentials to the named server, so touching it always asks.
 */
export function isUncPath(path: string): boolean {
  return /^(\\\\|\/\/)[^\\/]/.test(path) || /^\\\\[?.]\\/.test(path);
}
