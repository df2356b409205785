// After a Bash call that commits, switches, creates a branch or pushes, the result tells the model
// what changed in the repository (branch, short commit ids, files) — computed from real git state
// before and after, only when the command's analysis shows such a git operation.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { textOfResult } from "../../orchestration/fixtures.js";
import { createSession, type Session } from "./harness.js";

const IDENTITY = "-c user.name=Tester -c user.email=tester@example.com";
let session: Session;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Tester", "-c", "user.email=tester@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();
}

beforeEach(() => {
  session = createSession();
  git(session.project, "init", "-q", "-b", "main");
  writeFileSync(join(session.project, "README.md"), "hello\n");
  git(session.project, "add", "README.md");
  git(session.project, "commit", "-q", "-m", "Initial");
});
afterEach(async () => {
  await session.cleanup();
});

describe("git-operation tracking in Bash results", () => {
  it("after a commit: the branch, the new short id, its subject and the files changed", async () => {
    const result = await session.run("Bash", {
      command: `printf 'a\\nb\\n' > a.txt && echo more >> README.md && git add a.txt README.md && git ${IDENTITY} commit -q -m "Add a"`,
    });
    const head = git(session.project, "rev-parse", "--short=7", "HEAD");
    const text = textOfResult(result);
    expect(text).toContain(`Git: main is at ${head}; 1 new commit (2 files changed, 3 insertions(+)):`);
    expect(text).toContain(`  ${head} Add a`);
  });

  it("after switching to a new branch: the branch now checked out and that it was created", async () => {
    const head = git(session.project, "rev-parse", "--short=7", "HEAD");
    const text = textOfResult(await session.run("Bash", { command: "git switch -q -c feature" }));
    expect(text).toContain(`Now on branch feature at ${head} (was main).`);
    expect(text).toContain(`Created branch feature at ${head}.`);
  });

  it("after a push: the remote-tracking branch that moved", async () => {
    const remote = join(session.project, "..", "remote.git");
    mkdirSync(remote);
    git(remote, "init", "-q", "--bare");
    git(session.project, "remote", "add", "origin", remote);
    writeFileSync(join(session.project, "b.txt"), "b\n");
    git(session.project, "add", "b.txt");
    git(session.project, "commit", "-q", "-m", "Add b");
    const head = git(session.project, "rev-parse", "--short=7", "HEAD");
    const text = textOfResult(await session.run("Bash", { command: "git push -q origin main" }));
    expect(text).toContain(`Remote-tracking origin/main now at ${head}.`);
  });

  it("says nothing for commands that run no git operation, even when their text names one", async () => {
    expect(textOfResult(await session.run("Bash", { command: "git status --short" }))).not.toContain("Git:");
    expect(textOfResult(await session.run("Bash", { command: "echo git commit" }))).not.toContain("Git:");
  });

  it("says nothing when the operation changed nothing (a failed commit)", async () => {
    const result = await session.run("Bash", { command: `git ${IDENTITY} commit -q -m "nothing staged"` });
    expect(result.is_error).toBe(true);
    expect(textOfResult(result)).not.toContain("Git:");
  });
});
