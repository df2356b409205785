// The branch a session works on, for its transcript lines (Claude Code's `gitBranch`). Read from
// .git/HEAD directly rather than by running git: a transcript opens at the start of every session
// and a child process there would cost start-up time.
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** The checked-out branch of the repository holding `cwd`; "HEAD" when detached; "" outside git. */
export function currentGitBranch(cwd: string): string {
  const gitDir = findGitDir(resolve(cwd));
  if (gitDir === undefined) return "";
  try {
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
    const ref = /^ref: refs\/heads\/(.+)$/.exec(head);
    return ref?.[1] ?? "HEAD";
  } catch {
    return "";
  }
}

function findGitDir(start: string): string | undefined {
  let dir = start;
  while (true) {
    const dotGit = join(dir, ".git");
    try {
      // No exception where there is no .git (most folders up to the root): a thrown stat builds an
      // Error with its stack, at every start.
      const stats = statSync(dotGit, { throwIfNoEntry: false });
      if (stats?.isDirectory()) return dotGit;
      if (stats) {
        // A worktree or submodule: `.git` is a file naming the real git folder.
        const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"));
        if (pointer?.[1]) return isAbsolute(pointer[1]) ? pointer[1] : resolve(dir, pointer[1]);
      }
    } catch {
      // unreadable .git: look further up
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
