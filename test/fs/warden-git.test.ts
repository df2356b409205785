// Warden's own git never runs the repository's programs: worktrees (EnterWorktree, an Agent's
// isolation: 'worktree'), the fleet's clone, snapshot and patch, and any git through fs/git-run.ts,
// in a repository whose hooks, filters (odd names, an included file, a required process filter),
// fsmonitor, diff programs, pager and signing all leave a marker when they run.
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPatch, prepareWorkspace, workspacePatch } from "../../src/fleet/workspace.js";
import { runGit } from "../../src/fs/git-run.js";
import { createWorktree, removeWorktree, worktreeChanges } from "../../src/tools/worktree-shared/git-worktree.js";
import { tempDir } from "../loop/helpers.js";
import { hostileRepository, plainGit } from "./hostile-git-repository.js";

const identity = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

describe("the hostile repository (control)", () => {
  it("runs its programs under plain git: hooks, filters, fsmonitor, diff programs", () => {
    const { repo, ran } = hostileRepository(realpathSync(tempDir("warden-git-control-")));
    // Changed, so git status must run their clean filters: an unchanged file is cleaned only when its
    // stat is racy (written in the index's second), which depends on how fast the set-up ran.
    writeFileSync(join(repo, "a.txt"), "changed\n");
    writeFileSync(join(repo, "c.dat"), "changed\n");
    // Some programs fail on purpose: what counts is that they ran, not what they answered.
    const attempt = (...args: string[]) => {
      try {
        plainGit(repo, ...args);
      } catch {}
    };
    attempt("worktree", "add", "-q", "-b", "control", join(repo, "..", "control-wt"));
    // The required process filter does not speak its protocol, which stops git before the later
    // programs: the next tries go without it, so every program gets its turn.
    const tamed = ["-c", "filter.lfs.process=", "-c", "filter.lfs.required=false"];
    attempt(...tamed, "worktree", "add", "-q", "-b", "control2", join(repo, "..", "control-wt2"));
    attempt(...tamed, "status", "--porcelain");
    attempt(...tamed, "diff");
    const markers = ran();
    for (const expected of [
      "hookspath-post-checkout",
      "hookspath-reference-transaction",
      "smudge-odd",
      "clean-odd",
      "smudge-included",
      "clean-included",
      "process-lfs",
      "fsmonitor",
      "diff-command",
    ]) {
      expect(markers).toContain(expected);
    }
  });
});

describe("Warden's git in a hostile repository", () => {
  it("makes, inspects and removes a worktree without running any of them", async () => {
    const { repo, ran } = hostileRepository(realpathSync(tempDir("warden-git-wt-")));
    const worktree = await createWorktree(repo, "isolated");
    // The files are checked out as committed (no smudge filter ran on them).
    expect(readFileSync(join(worktree.path, "a.txt"), "utf8")).toBe("alpha\n");
    expect(readFileSync(join(worktree.path, "c.dat"), "utf8")).toBe("gamma\n");
    writeFileSync(join(worktree.path, "a.txt"), "edited\n");
    writeFileSync(join(worktree.path, "b.md"), "# edited\n");
    const changes = await worktreeChanges(worktree);
    expect(changes.uncommittedFiles).toBe(2);
    await removeWorktree(worktree);
    expect(existsSync(worktree.path)).toBe(false);
    expect(ran()).toEqual([]);
  });

  it("runs status, add, commit, diff, log -p, show and rev-parse without running any of them", async () => {
    const { repo, ran } = hostileRepository(realpathSync(tempDir("warden-git-cmds-")));
    writeFileSync(join(repo, "a.txt"), "changed\n");
    writeFileSync(join(repo, "c.dat"), "changed\n");
    expect(await runGit(repo, ["status", "--porcelain"])).toContain("a.txt");
    expect(await runGit(repo, ["diff"])).toContain("+changed");
    await runGit(repo, ["add", "-A"], { env: identity });
    await runGit(repo, ["commit", "-qm", "second"], { env: identity });
    expect(await runGit(repo, ["log", "-p", "-1"])).toContain("+changed");
    expect(await runGit(repo, ["show", "HEAD"])).toContain("+changed");
    expect((await runGit(repo, ["rev-parse", "--show-toplevel"])).trim()).toBe(repo);
    // The committed blob is the file's own bytes: no clean filter rewrote it.
    expect(await runGit(repo, ["show", "HEAD:c.dat"])).toBe("changed\n");
    expect(ran()).toEqual([]);
  });

  it("runs none from a subfolder of the repository", async () => {
    const { repo, ran } = hostileRepository(realpathSync(tempDir("warden-git-sub-")));
    mkdirSync(join(repo, "sub"));
    writeFileSync(join(repo, "sub", "e.txt"), "epsilon\n");
    await runGit(join(repo, "sub"), ["add", "e.txt"]);
    expect(await runGit(join(repo, "sub"), ["status", "--porcelain"])).toContain("sub/e.txt");
    expect(ran()).toEqual([]);
  });
});

describe("the fleet's workspace from a hostile repository", () => {
  const saved = process.env.GIT_CONFIG_GLOBAL;
  afterEach(() => {
    if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    else process.env.GIT_CONFIG_GLOBAL = saved;
  });

  it("clones, snapshots and patches without running a filter, a template hook or an fsmonitor", async () => {
    const root = realpathSync(tempDir("warden-git-fleet-"));
    const { repo, markers, ran } = hostileRepository(root);
    // A clone starts with no repository config: here the user's global config declares a filter
    // under the name the repository's .gitattributes picks, and a template folder whose hooks
    // every new clone gets.
    const template = join(root, "template");
    mkdirSync(join(template, "hooks"), { recursive: true });
    cpSync(join(repo, ".git", "hooks"), join(template, "hooks"), { recursive: true });
    const global = join(root, "global.gitconfig");
    writeFileSync(
      global,
      `[filter "Odd.Name-1"]\n\tsmudge = ${join(root, "bin", "smudge-odd")}\n\tclean = ${join(root, "bin", "clean-odd")}\n` +
        `[init]\n\ttemplateDir = ${template}\n[core]\n\tfsmonitor = ${join(root, "bin", "fsmonitor")}\n`,
    );
    process.env.GIT_CONFIG_GLOBAL = global;
    const scratch = join(root, "scratch");
    mkdirSync(scratch);
    const workspace = await prepareWorkspace(join(root, "clone"), repo, scratch);
    expect(readFileSync(join(workspace.dir, "a.txt"), "utf8")).toBe("alpha\n");
    writeFileSync(join(workspace.dir, "a.txt"), "job's change\n");
    const patch = await workspacePatch(workspace);
    expect(patch).toContain("+job's change");
    const other = await prepareWorkspace(join(root, "other"), repo, scratch);
    const patchFile = join(root, "job.patch");
    writeFileSync(patchFile, patch);
    await applyPatch(other.dir, patchFile);
    expect(readFileSync(join(other.dir, "a.txt"), "utf8")).toBe("job's change\n");
    expect(ran(), markers).toEqual([]);
  });
});
