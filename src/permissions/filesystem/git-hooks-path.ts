// The folder git runs hooks from when `core.hooksPath` names one (husky sets it to `.husky/_`,
// teams to `.githooks`): a file written there runs on the next commit or checkout, outside every
// permission check, so writes into it are protected like `.git/hooks`. git itself answers (it
// knows every config file, includes and worktrees); the answer is cached per repository and asked
// again when one of the config files changes, so a write check costs a few stat calls.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

interface CachedHooksPath {
  /** Absolute hooks folder, or undefined when core.hooksPath is not set. */
  folder: string | undefined;
  /** mtimes of the config files the answer came from; any change asks git again. */
  stamp: string;
}

const cache = new Map<string, CachedHooksPath>();

/** stat without an exception for the usual misses (missing, a file where a folder was expected). */
function statQuietly(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The top of the git work tree holding `path` (the folder with `.git`), or undefined. */
function workTreeTop(path: string): string | undefined {
  let dir = dirname(path);
  for (;;) {
    // No exception for a missing entry: this runs on every write check, for each parent folder.
    if (statQuietly(join(dir, ".git")) !== undefined) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The repository's git dir: `.git` itself, or where a worktree's `.git` file points. */
function gitDirOf(top: string): string {
  const dotGit = join(top, ".git");
  try {
    const text = readFileSync(dotGit, "utf8");
    const match = /^gitdir:\s*(.+)$/m.exec(text);
    if (match?.[1]) return resolve(top, match[1].trim());
  } catch {
    // A directory (the usual case) cannot be read as a file.
  }
  return dotGit;
}

function configFiles(top: string): string[] {
  const gitDir = gitDirOf(top);
  let common = gitDir;
  try {
    common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    // Not a linked worktree.
  }
  const home = process.env.HOME ?? homedir();
  const xdg = process.env.XDG_CONFIG_HOME || join(home, ".config");
  return [
    join(common, "config"),
    join(gitDir, "config.worktree"),
    process.env.GIT_CONFIG_GLOBAL ?? join(home, ".gitconfig"),
    join(xdg, "git", "config"),
    process.env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig",
  ];
}

function stampOf(files: readonly string[]): string {
  return files
    .map((file) => {
      const stats = statQuietly(file);
      return stats ? `${stats.mtimeMs}:${stats.size}` : "-";
    })
    .join("|");
}

function askGit(top: string): string | undefined {
  try {
    // `git config` reads configuration only: no hook, fsmonitor or external program runs.
    const value = execFileSync("git", ["-C", top, "config", "--type=path", "--get", "core.hooksPath"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 3000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    }).trim();
    if (value === "") return undefined;
    // A relative hooks path is relative to the top of the work tree, where git runs hooks.
    return isAbsolute(value) ? value : resolve(top, value);
  } catch {
    // Unset (exit 1), no git, or not a repository git will read: no hooks folder to protect.
    return undefined;
  }
}

/** The folder `core.hooksPath` names for the repository holding `path`, if any. */
export function configuredHooksFolder(path: string): string | undefined {
  const top = workTreeTop(path);
  if (top === undefined) return undefined;
  const stamp = stampOf(configFiles(top));
  const cached = cache.get(top);
  if (cached && cached.stamp === stamp) return cached.folder;
  const folder = askGit(top);
  cache.set(top, { folder, stamp });
  return folder;
}
