// A sandboxed command must not plant a repository for git to trust outside the sandbox: a `.git`
// (folder or gitfile) with a hostile core.fsmonitor or hooks, or a bare repository (HEAD, objects/,
// refs/, config at the top of a writable folder). With real bubblewrap: the planting fails, the
// stand-ins that refused it are gone from the host afterwards, git keeps working in an existing
// repository, and no later git run (outside the sandbox) executes anything the command wrote.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { probeBubblewrap } from "../../src/shell/sandbox/index.js";
import { createSession, type Session, text } from "../tools/bash/harness.js";

const sessions: Session[] = [];

function sandboxed(): Session {
  const session = createSession({ sandboxSettings: { enabled: true } });
  sessions.push(session);
  return session;
}

beforeAll(async () => {
  const availability = await probeBubblewrap();
  if (!availability.available) throw new Error(`these tests need bubblewrap: ${availability.reason}`);
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.cleanup();
});

/** Runs git outside the sandbox as the user would, with a marker a planted fsmonitor would write. */
function gitStatusOutside(cwd: string): void {
  try {
    execFileSync("git", ["status", "--short"], {
      cwd,
      stdio: "ignore",
      env: { ...process.env, GIT_CEILING_DIRECTORIES: join(cwd, "..") },
    });
  } catch {
    // Not a repository: nothing runs, which is the point.
  }
}

describe("sandbox: no repository planted for git to trust", () => {
  it("a folder that is no repository: neither a .git nor a bare repository can be made, and nothing is left behind", async () => {
    const session = sandboxed();
    const marker = join(session.sessionDir, "fsmonitor-ran");
    const plantDotGit = await session.run("Bash", {
      command: `mkdir -p .git/hooks && printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' > .git/config`,
    });
    expect(plantDotGit.is_error).toBe(true);
    expect(text(plantDotGit)).toMatch(/Read-only file system|Permission denied/);

    for (const command of [
      "echo 'ref: refs/heads/main' > HEAD",
      "mkdir objects",
      "mkdir refs",
      "git init -q --bare .",
    ]) {
      const plantBare = await session.run("Bash", { command });
      expect(plantBare.is_error, command).toBe(true);
    }

    const gitFile = await session.run("Bash", { command: "echo 'gitdir: /tmp' > .git" });
    expect(gitFile.is_error).toBe(true);

    // The stand-ins that refused all this are gone; what the command was allowed to write stays.
    const left = readdirSync(session.project).sort();
    expect(left).not.toContain(".git");
    expect(left).not.toContain("HEAD");
    expect(left).not.toContain("objects");
    expect(left).not.toContain("refs");
    gitStatusOutside(session.project);
    expect(existsSync(marker)).toBe(false);

    // Ordinary work in the folder goes on, and git there still says plainly it is no repository.
    const work = await session.run("Bash", { command: "mkdir -p src && echo ok > src/a.txt && cat src/a.txt" });
    expect(work.is_error).toBeUndefined();
    expect(text(work)).toBe("ok");
    const status = await session.run("Bash", { command: "GIT_CEILING_DIRECTORIES=$(dirname $PWD) git status" });
    expect(text(status)).toContain("not a git repository");
  });

  it("an existing repository: git works, but its config and hooks stay out of reach", async () => {
    const session = sandboxed();
    execFileSync("git", ["init", "-q"], { cwd: session.project });
    rmHooks(session.project);
    const marker = join(session.sessionDir, "hook-ran");

    const hooks = await session.run("Bash", {
      command: `mkdir -p .git/hooks && printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit`,
    });
    expect(hooks.is_error).toBe(true);
    const config = await session.run("Bash", { command: `git config core.fsmonitor 'touch ${marker}'` });
    expect(config.is_error).toBe(true);

    const commit = await session.run("Bash", {
      command:
        "echo hi > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -q -m first && git checkout -q -b topic && git branch --show-current",
    });
    expect(commit.is_error, text(commit)).toBeUndefined();
    expect(text(commit)).toMatch(/^topic/);

    // The stand-in for the missing hooks folder is gone again.
    expect(existsSync(join(session.project, ".git", "hooks"))).toBe(false);
    execFileSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "x"],
      {
        cwd: session.project,
      },
    );
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(join(session.project, ".git", "config"), "utf8")).not.toContain("fsmonitor");
  });

  it("parallel sandboxed commands in one folder: one ending does not open the other's guard", async () => {
    const session = sandboxed();
    const [slow, fast] = await Promise.all([
      session.run("Bash", { command: "sleep 1; mkdir .git 2>&1 || echo refused" }),
      session.run("Bash", { command: "true" }),
    ]);
    expect(fast.is_error).toBeUndefined();
    expect(text(slow)).toContain("refused");
    expect(readdirSync(session.project)).not.toContain(".git");
  });
});

function rmHooks(project: string): void {
  execFileSync("rm", ["-rf", join(project, ".git", "hooks")]);
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "src", "keep.txt"), "keep\n");
}
