// The branch a transcript records (src/session/git-branch.ts), found by walking up from the working
// directory to the first .git: a folder, or a file naming the real git folder (a worktree). The
// folders without one are passed without an exception being thrown for each.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { currentGitBranch } from "../../src/session/git-branch.js";
import { tempDir } from "../loop/helpers.js";

function repository(head: string): string {
  const root = tempDir("warden-branch-");
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, ".git", "HEAD"), `${head}\n`);
  return root;
}

describe("the session's git branch", () => {
  it("is the checked-out branch, from the repository's root or any folder below it", () => {
    const root = repository("ref: refs/heads/feature/reads");
    const deep = join(root, "src", "a", "b");
    mkdirSync(deep, { recursive: true });
    expect(currentGitBranch(root)).toBe("feature/reads");
    expect(currentGitBranch(deep)).toBe("feature/reads");
  });

  it("is HEAD when detached", () => {
    expect(currentGitBranch(repository("0123456789abcdef0123456789abcdef01234567"))).toBe("HEAD");
  });

  it("follows a .git file to the git folder it names (a worktree), relative or absolute", () => {
    const main = repository("ref: refs/heads/main");
    const worktreeGit = join(main, ".git", "worktrees", "wt");
    mkdirSync(worktreeGit, { recursive: true });
    writeFileSync(join(worktreeGit, "HEAD"), "ref: refs/heads/reads\n");
    const absolute = tempDir("warden-worktree-");
    writeFileSync(join(absolute, ".git"), `gitdir: ${worktreeGit}\n`);
    mkdirSync(join(absolute, "nested"));
    expect(currentGitBranch(join(absolute, "nested"))).toBe("reads");
    const relative = join(main, "linked");
    mkdirSync(relative);
    writeFileSync(join(relative, ".git"), "gitdir: ../.git/worktrees/wt\n");
    expect(currentGitBranch(relative)).toBe("reads");
  });

  it("is empty outside any repository", () => {
    const plain = tempDir("warden-no-git-");
    // Unless the temporary folder itself sits in a repository, which a test cannot change.
    const above = currentGitBranch(join(plain, ".."));
    expect(currentGitBranch(plain)).toBe(above);
    if (above === "") expect(currentGitBranch(join(plain, "missing", "folder"))).toBe("");
  });
});
