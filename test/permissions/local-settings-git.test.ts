// "Don't ask again" into .warden/settings.local.json inside a git repository: the file is the
// user's, so it stays out of `git status` (the repository's .git/info/exclude names it). Real git,
// real files.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { persistPermissionUpdate } from "../../src/permissions/settings/index.js";
import type { PermissionUpdate } from "../../src/tool/permission-types.js";
import { isolateEnvironment, tempDir } from "./helpers.js";

isolateEnvironment();

const allowTouch: PermissionUpdate = {
  type: "addRules",
  behavior: "allow",
  rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
  destination: "localSettings",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" });
}

function repository(): string {
  const dir = realpathSync(tempDir());
  git(dir, "init", "-q");
  writeFileSync(join(dir, "README.md"), "hi\n");
  git(dir, "add", "README.md");
  git(dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return dir;
}

const excludeOf = (repo: string) => readFileSync(join(repo, ".git", "info", "exclude"), "utf8");

describe("the local settings file and git", () => {
  it("is kept out of git status, with one exclude line however many answers are saved", () => {
    const repo = repository();
    persistPermissionUpdate(allowTouch, repo);
    persistPermissionUpdate({ ...allowTouch, rules: [{ toolName: "Bash", ruleContent: "mkdir:*" }] }, repo);
    expect(existsSync(join(repo, ".warden", "settings.local.json"))).toBe(true);
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(
      excludeOf(repo)
        .split("\n")
        .filter((line) => line === "/.warden/settings.local.json"),
    ).toHaveLength(1);
  });

  it("names the file from the repository's top when the session runs in a subfolder", () => {
    const repo = repository();
    const sub = join(repo, "packages", "app");
    mkdirSync(sub, { recursive: true });
    persistPermissionUpdate(allowTouch, sub);
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(excludeOf(repo)).toContain("/packages/app/.warden/settings.local.json\n");
  });

  it("in a linked worktree, uses the main repository's exclude file, which git reads for every worktree", () => {
    const repo = repository();
    const tree = join(realpathSync(tempDir()), "tree");
    git(repo, "worktree", "add", "-q", tree);
    persistPermissionUpdate(allowTouch, tree);
    expect(git(tree, "status", "--porcelain")).toBe("");
    expect(excludeOf(repo)).toContain("/.warden/settings.local.json\n");
  });

  it("writes the answer outside any repository too", () => {
    const dir = tempDir();
    persistPermissionUpdate(allowTouch, dir);
    expect(JSON.parse(readFileSync(join(dir, ".warden", "settings.local.json"), "utf8"))).toEqual({
      permissions: { allow: ["Bash(touch:*)"] },
    });
  });
});
