// Git worktrees for EnterWorktree, ExitWorktree and the Agent tool's isolation: 'worktree'. A
// worktree goes in `<repository>/.worktrees/<name>` on a new branch `worktree/<name>`: inside the
// working directories (so the file tools may work there) and under no protected folder (.git/,
// .warden/, .claude/ are: edits there would be refused as edits of configuration). The folder is
// added to the repository's own .git/info/exclude so the main tree's status stays clean. Every git
// here goes through fs/git-run.ts: making a worktree checks files out, which would otherwise run the
// repository's post-checkout hook, its smudge filters and its fsmonitor, always allowed.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "../../fs/git-run.js";

export interface GitWorktree {
  path: string;
  branch: string;
  /** The commit it started from: what "commits it would discard" counts from. */
  baseCommit: string;
  /** The main repository's root. */
  repoRoot: string;
  /** Made by WorktreeCreate hooks (./hooked-worktree.ts): no branch of Warden's, and theirs to remove. */
  madeByHook?: boolean;
}

function git(cwd: string, args: string[]): Promise<string> {
  return runGit(cwd, args, { maxBuffer: 16 * 1024 * 1024 });
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkWorktreeName(name: string): string | undefined {
  if (!NAME.test(name) || name.includes("..")) {
    return `worktree name "${name}" must be letters, digits, '.', '_' or '-' (at most 64), starting with a letter or digit`;
  }
  return undefined;
}

/** The root of the repository `cwd` is in (the main one, also from inside a worktree). */
export async function repositoryRoot(cwd: string): Promise<string> {
  const common = (await git(cwd, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
  return (await git(join(common, ".."), ["rev-parse", "--show-toplevel"])).trim();
}

function excludeWorktreesFolder(repoRoot: string): void {
  const exclude = join(repoRoot, ".git", "info", "exclude");
  if (!existsSync(join(repoRoot, ".git"))) return;
  mkdirSync(join(repoRoot, ".git", "info"), { recursive: true });
  const current = existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
  if (!current.split("\n").includes("/.worktrees/")) {
    appendFileSync(exclude, `${current === "" || current.endsWith("\n") ? "" : "\n"}/.worktrees/\n`);
  }
}

export async function createWorktree(cwd: string, name: string): Promise<GitWorktree> {
  const problem = checkWorktreeName(name);
  if (problem) throw new Error(problem);
  const repoRoot = await repositoryRoot(cwd).catch(() => {
    throw new Error(`${cwd} is not inside a git repository: a worktree needs one`);
  });
  const path = join(repoRoot, ".worktrees", name);
  if (existsSync(path)) throw new Error(`a worktree named "${name}" already exists at ${path}`);
  const branch = `worktree/${name}`;
  const baseCommit = (await git(repoRoot, ["rev-parse", "HEAD"])).trim();
  excludeWorktreesFolder(repoRoot);
  await git(repoRoot, ["worktree", "add", "-b", branch, path, baseCommit]);
  return { path, branch, baseCommit, repoRoot };
}

export interface WorktreeChanges {
  /** Files with uncommitted changes (tracked or not, ignored ones included: removal deletes them too). */
  uncommittedFiles: number;
  /** Commits since it was made, on its branch or wherever its HEAD now is. */
  commits: number;
}

/**
 * What removing the worktree would lose, read from the worktree itself: every file git would
 * delete with it (untracked and ignored files count: `git worktree remove --force` takes them), and
 * every commit that only its branch or its HEAD holds (a HEAD moved off the branch still counts the
 * branch's commits, which `branch -D` would drop).
 */
export async function worktreeChanges(worktree: GitWorktree): Promise<WorktreeChanges> {
  // A hook's worktree has no branch or base of Warden's: its files are all that can be counted.
  if (worktree.madeByHook) {
    const status = await git(worktree.path, ["status", "--porcelain", "--untracked-files=all"]).catch(() => "");
    return { uncommittedFiles: status.split("\n").filter((l) => l.trim() !== "").length, commits: 0 };
  }
  const status = await git(worktree.path, ["status", "--porcelain", "--untracked-files=all", "--ignored=matching"]);
  const count = await git(worktree.path, [
    "rev-list",
    "--count",
    "HEAD",
    `refs/heads/${worktree.branch}`,
    "--not",
    worktree.baseCommit,
  ]);
  return { uncommittedFiles: status.split("\n").filter((l) => l.trim() !== "").length, commits: Number(count.trim()) };
}

/** Whether the worktree holds anything its removal would lose. */
export function hasWork(changes: WorktreeChanges): boolean {
  return changes.uncommittedFiles > 0 || changes.commits > 0;
}

/** Removes the worktree folder and its branch (the caller checked what would be lost). */
export async function removeWorktree(worktree: GitWorktree): Promise<void> {
  await git(worktree.repoRoot, ["worktree", "remove", "--force", worktree.path]);
  await git(worktree.repoRoot, ["branch", "-D", worktree.branch]);
}
