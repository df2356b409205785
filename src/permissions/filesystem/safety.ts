// The bypass-immune safety checks on paths: no mode and no allow rule makes these writes silent.
// A write into .git/ can plant a hook that runs on the next commit; into .warden/ or .claude/ it
// can rewrite the agent's own permissions; into a shell start-up file a command that runs in every
// future shell. Other tools run files on their own too, with no permission check of ours: direnv
// runs .envrc on entering the folder, git the hooks in .husky/ or wherever core.hooksPath points,
// editors the tasks of .vscode/ (and of a .code-workspace file) on folder open, and dev-container
// tools the commands of .devcontainer/ when the container is built.
import { basename, isAbsolute, relative, sep } from "node:path";
import { configuredHooksFolder } from "./git-hooks-path.js";

const PROTECTED_DIRECTORIES = new Set([".git", ".warden", ".claude", ".vscode", ".idea", ".husky", ".devcontainer"]);

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
  ".envrc",
  ".devcontainer.json",
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
  if (name.endsWith(".code-workspace")) return `${absolutePath} is an editor workspace, whose tasks can run on open`;
  const hooks = configuredHooksFolder(absolutePath);
  if (hooks !== undefined && isWithin(hooks, absolutePath)) {
    return `${absolutePath} is in ${hooks}, the folder git runs hooks from (core.hooksPath)`;
  }
  return undefined;
}

function isWithin(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/**
 * Windows UNC paths (`\\server\share`, and `//server/share` as they may be spelled): opening one
 * can send the user's NTLM credentials to the named server, so touching it always asks.
 */
export function isUncPath(path: string): boolean {
  return /^(\\\\|\/\/)[^\\/]/.test(path) || /^\\\\[?.]\\/.test(path);
}
