// Worktrees with real git through the CLI: an agent with isolation 'worktree' commits on its own
// branch while the main checkout stays untouched (its worktree kept), one that changes nothing
// leaves no worktree behind; EnterWorktree moves the session, ExitWorktree refuses to remove work
// and keeps it when asked.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { hostileRepository } from "../fs/hostile-git-repository.js";
import { tempDir, writeScript } from "../loop/helpers.js";

const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });
const text = (value: string) => ({ type: "text", text: value });
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

function repo(): string {
  const cwd = realpathSync(tempDir("warden-wt-"));
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "src/a.txt"), "a\n");
  git(cwd, "init", "-q");
  git(cwd, "add", ".");
  git(cwd, "commit", "-qm", "init");
  return cwd;
}

function resultsOf(stdout: string): Map<string, string> {
  const results = new Map<string, string>();
  for (const line of jsonLines(stdout)) {
    const message = line.message as { content?: Array<{ type: string; tool_use_id?: string; content?: unknown }> };
    if (line.type !== "user" || !Array.isArray(message?.content)) continue;
    for (const block of message.content) {
      if (block.type === "tool_result" && block.tool_use_id) results.set(block.tool_use_id, String(block.content));
    }
  }
  return results;
}

async function warden(cwd: string, script: string) {
  const run = await runCli(
    [
      "-p",
      "go",
      "--model",
      `replay:${script}`,
      "--output-format",
      "stream-json",
      "--cwd",
      cwd,
      "--permission-mode",
      "bypassPermissions",
    ],
    { home: tempDir("warden-wt-home-") },
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run;
}

describe("worktrees", () => {
  it("in a repository whose hooks, filters and fsmonitor leave markers, EnterWorktree and isolation: 'worktree' run none of them", async () => {
    const { repo: cwd, ran } = hostileRepository(realpathSync(tempDir("warden-wt-hostile-")));
    const script = writeScript(tempDir("warden-wt-script-"), [
      {
        content: [
          toolUse("m1", "Agent", {
            description: "look",
            prompt: "Look",
            subagent_type: "Explore",
            isolation: "worktree",
          }),
        ],
      },
      { agent: "look", content: [text("Nothing to change.")] },
      { content: [toolUse("e1", "EnterWorktree", { name: "feature" })] },
      { content: [text("done")] },
    ]);
    const run = await warden(cwd, script);
    const results = resultsOf(run.stdout);
    expect(results.get("m1")).toContain("removed since nothing in it changed");
    expect(results.get("e1")).toContain(join(cwd, ".worktrees", "feature"));
    // Checked out as committed: no smudge filter rewrote the files.
    expect(readFileSync(join(cwd, ".worktrees", "feature", "a.txt"), "utf8")).toBe("alpha\n");
    expect(ran()).toEqual([]);
  }, 60_000);

  it("isolation 'worktree': changes land on the agent's branch, the main checkout is untouched", async () => {
    const cwd = repo();
    const script = writeScript(tempDir("warden-wt-script-"), [
      {
        content: [
          toolUse("m1", "Agent", { description: "add file", prompt: "Add new.txt", isolation: "worktree" }),
          toolUse("m2", "Agent", {
            description: "look only",
            prompt: "Look",
            subagent_type: "Explore",
            isolation: "worktree",
          }),
        ],
      },
      {
        agent: "add file",
        content: [
          toolUse("a1", "Bash", {
            command:
              "pwd && echo new > new.txt && git add new.txt && git -c user.email=t@t -c user.name=t commit -qm 'add new'",
          }),
        ],
      },
      { agent: "add file", content: [text("Committed new.txt.")] },
      { agent: "look only", content: [toolUse("l1", "Bash", { command: "git status --short && ls" })] },
      { agent: "look only", content: [text("Nothing to change.")] },
      { content: [text("done")] },
    ]);
    const run = await warden(cwd, script);
    const results = resultsOf(run.stdout);
    const kept = /It worked in the worktree (\S+) \(branch (\S+)\), kept/.exec(results.get("m1") ?? "");
    expect(kept, results.get("m1")).not.toBeNull();
    const [, path, branch] = kept as RegExpExecArray;
    expect(path).toMatch(new RegExp(`^${cwd}/\\.worktrees/agent-a[0-9a-f]+$`));
    // The commit is on the agent's branch, in its worktree, and not in the main checkout.
    expect(git(cwd, "log", "--format=%s", String(branch))).toBe("add new\ninit\n");
    expect(readFileSync(join(String(path), "new.txt"), "utf8")).toBe("new\n");
    expect(existsSync(join(cwd, "new.txt"))).toBe(false);
    expect(git(cwd, "log", "--format=%s")).toBe("init\n");
    expect(git(cwd, "status", "--porcelain")).toBe("");
    // The agent that changed nothing left no worktree and no branch.
    expect(results.get("m2")).toContain("removed since nothing in it changed");
    expect(git(cwd, "worktree", "list").trim().split("\n")).toHaveLength(2);
    expect(git(cwd, "branch", "--list", "worktree/*").trim().split("\n")).toHaveLength(1);
  }, 60_000);

  it("EnterWorktree moves the session; ExitWorktree refuses to remove work, then keeps it", async () => {
    const cwd = repo();
    const script = writeScript(tempDir("warden-wt-script-"), [
      { content: [toolUse("e1", "EnterWorktree", { name: "feature" })] },
      { content: [toolUse("b1", "Bash", { command: "echo wip > f.txt && pwd" })] },
      { content: [toolUse("x1", "ExitWorktree", { action: "remove" })] },
      { content: [toolUse("x2", "ExitWorktree", { action: "keep" })] },
      { content: [toolUse("b2", "Bash", { command: "pwd" })] },
      { content: [text("done")] },
    ]);
    const run = await warden(cwd, script);
    const results = resultsOf(run.stdout);
    const worktree = join(cwd, ".worktrees", "feature");
    expect(results.get("e1")).toContain(`Created the worktree ${worktree} on branch worktree/feature`);
    expect(results.get("b1")).toContain(worktree);
    expect(results.get("x1")).toContain("has 1 uncommitted file(s) and 0 commit(s) that removing would discard");
    expect(results.get("x2")).toContain(`Left the worktree ${worktree}`);
    expect(results.get("b2")?.trim()).toBe(cwd);
    expect(readFileSync(join(worktree, "f.txt"), "utf8")).toBe("wip\n");
    expect(existsSync(join(cwd, "f.txt"))).toBe(false);
    // The main checkout's status ignores the worktrees folder.
    expect(git(cwd, "status", "--porcelain")).toBe("");
  }, 60_000);
});
