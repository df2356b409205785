// A repository's own git configuration can name programs that read-only git commands start
// (core.fsmonitor on `git status`, diff.external on `git diff`, a post-index-change hook): such a
// command is not allowed as read-only there. Real git, real hostile `.git/config` files whose
// programs would touch a marker file, and the real engine with the headless ask handler.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolUse } from "../../../src/orchestration/run-tool-use.js";
import { checkBashCommandPermission } from "../../../src/permissions/bash/check.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../../src/permissions/engine/index.js";
import { contextWith } from "../../shell/helpers.js";
import { createSession, type Session, text } from "../../tools/bash/harness.js";

const sessions: Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.cleanup();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
}

/** A session whose project is a git repository with one committed and one changed file. */
function repository(): { session: Session; marker: string } {
  const session = createSession();
  sessions.push(session);
  const { project } = session;
  git(project, "init", "-q");
  git(project, "config", "user.email", "t@example.com");
  git(project, "config", "user.name", "t");
  writeFileSync(join(project, "a.txt"), "one\n");
  git(project, "add", "a.txt");
  git(project, "commit", "-qm", "one");
  writeFileSync(join(project, "a.txt"), "two\n");
  return { session, marker: join(project, "..", "marker") };
}

async function decide(command: string, cwd: string) {
  return checkBashCommandPermission({ command, cwd, permissionContext: contextWith({}, [cwd]) });
}

describe("read-only git commands in a repository whose config runs programs", () => {
  it("are allowed as read-only in a plain repository", async () => {
    const { session } = repository();
    for (const command of ["git status", "git diff", "git log --oneline", "git -C . status"]) {
      expect((await decide(command, session.project)).behavior, command).toBe("allow");
    }
  });

  it("core.fsmonitor: git status really runs it, so git status asks and names the key", async () => {
    const { session, marker } = repository();
    git(session.project, "config", "core.fsmonitor", `touch '${marker}'; false`);
    // The hostile config is real: git itself runs the program on status.
    git(session.project, "status", "--short");
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const result = await decide("git status", session.project);
    expect(result.behavior).toBe("passthrough");
    expect("message" in result ? result.message : "").toContain("core.fsmonitor");
    // From a subfolder, and through -C, the same repository is found.
    mkdirSync(join(session.project, "sub"));
    expect((await decide("git status", join(session.project, "sub"))).behavior).not.toBe("allow");
    expect((await decide(`git -C '${session.project}' status`, join(session.project, ".."))).behavior).not.toBe(
      "allow",
    );

    // Through the real engine, headless, nothing runs and the marker stays absent.
    const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler() });
    const outcome = await runToolUse(
      { type: "tool_use", id: "toolu_fsmonitor", name: "Bash", input: { command: "git status" } },
      session.context,
      canUseTool,
      undefined,
    );
    expect(outcome.result.is_error).toBe(true);
    expect(text(outcome.result)).toContain("core.fsmonitor");
    expect(existsSync(marker)).toBe(false);
  });

  it("diff.external and textconv drivers: git diff asks", async () => {
    const { session, marker } = repository();
    git(session.project, "config", "diff.external", `sh -c 'touch ${marker}'`);
    git(session.project, "diff");
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const result = await decide("git diff", session.project);
    expect(result.behavior).toBe("passthrough");
    expect("message" in result ? result.message : "").toContain("diff.external");

    git(session.project, "config", "--unset", "diff.external");
    expect((await decide("git diff", session.project)).behavior).toBe("allow");
    git(session.project, "config", "diff.evil.textconv", `touch ${marker}`);
    expect((await decide("git log -p", session.project)).behavior).toBe("passthrough");
  });

  it("an include.path that brings a pager in, and a post-index-change hook, ask too", async () => {
    const { session } = repository();
    writeFileSync(join(session.project, ".git", "extra.conf"), "[pager]\n\tlog = sh -c 'touch x'\n");
    git(session.project, "config", "include.path", "extra.conf");
    const included = await decide("git log", session.project);
    expect("message" in included ? included.message : "").toContain("pager.log");

    const other = repository();
    const hook = join(other.session.project, ".git", "hooks", "post-index-change");
    writeFileSync(hook, `#!/bin/sh\ntouch '${other.marker}'\n`);
    chmodSync(hook, 0o755);
    const hooked = await decide("git status", other.session.project);
    expect(hooked.behavior).toBe("passthrough");
    expect("message" in hooked ? hooked.message : "").toContain("post-index-change");
  });

  it("the user's own global configuration is not questioned", async () => {
    const { session } = repository();
    const globalConfig = join(session.project, "..", "global.gitconfig");
    writeFileSync(globalConfig, "[core]\n\tpager = less\n");
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = globalConfig;
    try {
      expect((await decide("git log", session.project)).behavior).toBe("allow");
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
    }
  });
});

describe("deny rules hold against aliases from git's configuration files", () => {
  const denyPush = { allow: ["Bash(git:*)"], deny: ["Bash(git push:*)", "Bash(rm:*)"] };
  const judge = (command: string, cwd: string) =>
    checkBashCommandPermission({ command, cwd, permissionContext: contextWith(denyPush, [cwd]) });

  it("a word alias in the repository's .git/config is expanded and denied, naming the rule", async () => {
    const { session } = repository();
    git(session.project, "config", "alias.p", "push --force");
    // git really runs push for it (no remote: push fails for that reason, not as an unknown command).
    expect(() => git(session.project, "p")).toThrow();
    const result = await judge("git p origin main", session.project);
    expect(result.behavior).toBe("deny");
    expect("message" in result ? result.message : "").toContain("Bash(git push:*)");
    // Elsewhere, and for a subcommand with no alias, the broad allow stands.
    expect((await judge("git st", session.project)).behavior).toBe("allow");
    expect((await judge("git log --oneline", session.project)).behavior).toBe("allow");
  });

  it("a shell alias asks while deny rules are in force, and runs under the broad allow when none is", async () => {
    const { session } = repository();
    git(session.project, "config", "alias.clean-all", "!rm -rf build");
    const result = await judge("git clean-all", session.project);
    expect(result.behavior).toBe("ask");
    expect("message" in result ? result.message : "").toContain("rm -rf build");
    const noDeny = contextWith({ allow: ["Bash(git:*)"] }, [session.project]);
    expect(
      (await checkBashCommandPermission({ command: "git clean-all", cwd: session.project, permissionContext: noDeny }))
        .behavior,
    ).toBe("allow");
  });
});
