// Where a folder's git repository keeps its configuration: the work tree's top (the folder with
// `.git`) or a bare repository git would discover in the folder itself, its git dir (a worktree's
// `.git` file points elsewhere), and the config files whose change time says a cached answer about
// that configuration is stale.
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

export interface GitRepository {
  /** The folder git is asked from: the work tree's top, or the bare repository itself. */
  top: string;
  /** This worktree's git dir. */
  gitDir: string;
  /** The git dir shared by all worktrees (where `config` and `hooks/` live). */
  commonDir: string;
}

/** stat without an exception for the usual misses (missing, a file where a folder was expected). */
export function statQuietly(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The repository git would find from `dir` (walking up as git does), or undefined. */
export function repositoryAt(dir: string): GitRepository | undefined {
  let current = resolve(dir);
  for (;;) {
    // No exception for a missing entry: this runs on every check, for each parent folder.
    if (statQuietly(join(current, ".git")) !== undefined) return withDirs(current, gitDirOf(current));
    // git also discovers a bare repository in the folder it runs in (an unpacked archive can hold one).
    if (statQuietly(join(current, "HEAD"))?.isFile() && statQuietly(join(current, "objects"))?.isDirectory())
      return withDirs(current, current);
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The repository holding the file at `path` (its folder is where the walk starts). */
export function repositoryOfFile(path: string): GitRepository | undefined {
  return repositoryAt(dirname(path));
}

function withDirs(top: string, gitDir: string): GitRepository {
  let commonDir = gitDir;
  try {
    commonDir = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    // Not a linked worktree.
  }
  return { top, gitDir, commonDir };
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

/** Every config file git reads for this repository, the repository's own first. */
export function configFilesOf(repository: GitRepository): string[] {
  const home = process.env.HOME ?? homedir();
  const xdg = process.env.XDG_CONFIG_HOME || join(home, ".config");
  return [
    join(repository.commonDir, "config"),
    join(repository.gitDir, "config.worktree"),
    process.env.GIT_CONFIG_GLOBAL ?? join(home, ".gitconfig"),
    join(xdg, "git", "config"),
    process.env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig",
  ];
}

/** Change times and sizes of files: equal stamps mean nothing was written in between. */
export function stampOf(files: readonly string[]): string {
  return files
    .map((file) => {
      const stats = statQuietly(file);
      return stats ? `${stats.mtimeMs}:${stats.size}` : "-";
    })
    .join("|");
}
