// `!`command`` in a custom command (Claude Code's syntax): run when the command is expanded, as a
// Bash call through the real engine with the command's allowed-tools added, its output in place of
// the mark. Real bash and git on a temp repository, the real discovery, expansion and engine with
// the headless ask handler (a call that would ask is refused, and the text says so).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expandPrompt } from "../../../src/cli/session/skills-setup.js";
import { discoverSkills } from "../../../src/config/skills/discover.js";
import { runToolUse } from "../../../src/orchestration/run-tool-use.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../../src/permissions/engine/index.js";
import type { ToolPermissionContext } from "../../../src/tool/permission-types.js";
import { runCommandShell } from "../../../src/tools/skill/shell-marks.js";
import { createSkillTool } from "../../../src/tools/skill/tool.js";
import { contextWith } from "../../shell/helpers.js";
import { createSession, type Session } from "../bash/harness.js";

let session: Session;
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "warden-home-"));
  vi.stubEnv("HOME", home);
  session = createSession();
  const git = (...args: string[]) => execFileSync("git", args, { cwd: session.project, stdio: "ignore" });
  git("init", "-q");
  git("config", "user.email", "t@example.com");
  git("config", "user.name", "t");
  // The command files written below are not part of what status reports.
  writeFileSync(join(session.project, ".git", "info", "exclude"), ".claude/\n");
  writeFileSync(join(session.project, "a.txt"), "one\n");
  git("add", "a.txt");
  git("commit", "-qm", "one");
  writeFileSync(join(session.project, "a.txt"), "two\n");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await session.cleanup();
  rmSync(home, { recursive: true, force: true });
});

/** What `git status --short` says now, read by the test itself. */
function status(): string {
  return execFileSync("git", ["status", "--short"], { cwd: session.project, encoding: "utf8" });
}

function writeCommand(dir: string, name: string, frontmatter: string, body: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `---\n${frontmatter}\n---\n${body}\n`);
}

const STAGE_AND_SHOW = "Staged:\n!`git add a.txt`\nNow: !`git status --short`\nWrite a commit message.";

/** `/prompt` expanded as a session does it, then its `!` marks run with the grants in force. */
async function expandAndRun(
  prompt: string,
  options: { trusted?: boolean; base?: ToolPermissionContext; plugin?: string } = {},
): Promise<string> {
  const catalog = await discoverSkills({
    cwd: session.project,
    projectTrusted: options.trusted ?? true,
    ...(options.plugin && {
      pluginFolders: [{ plugin: "tools", skills: [], commands: [join(options.plugin, "commands")] }],
    }),
  });
  const warnings: string[] = [];
  const expanded = await expandPrompt(
    prompt,
    catalog,
    options.base ?? contextWith({}, [session.project]),
    session.project,
    (warning) => warnings.push(warning),
  );
  if (!expanded.ok) throw new Error(expanded.message);
  expect(expanded.fromFile).toBe(true);
  session.context.setAppState((state) => ({ ...state, toolPermissionContext: expanded.permissionContext }));
  return runCommandShell(expanded.prompt, {
    contextFor: (abortController) => ({ ...session.context, abortController }),
    canUseTool: createCanUseTool({ askHandler: createHeadlessAskHandler() }),
    origin: { commandName: prompt.slice(1).split(" ")[0] ?? "", invokedBy: "user" },
  });
}

describe("!`command` in a custom command", () => {
  it("runs what its allowed-tools allow and puts the output in place of the mark", async () => {
    writeCommand(
      join(session.project, ".claude", "commands"),
      "st",
      "allowed-tools: Bash(git add:*), Bash(git status:*)",
      STAGE_AND_SHOW,
    );
    const text = await expandAndRun("/st");
    // git add really ran (the change is staged), and status's output replaced its mark.
    expect(status()).toBe("M  a.txt\n");
    expect(text).toBe("Staged:\n\nNow: M  a.txt\nWrite a commit message.");
    expect(text).not.toContain("!`");
  });

  it("does not run a command its frontmatter does not allow, and says why in its place", async () => {
    writeCommand(join(session.project, ".claude", "commands"), "st", "description: no grants", STAGE_AND_SHOW);
    const text = await expandAndRun("/st");
    expect(status()).toBe(" M a.txt\n");
    expect(text).toContain("[warden did not run `git add a.txt`:");
    expect(text).toContain("nobody can approve it");
    // The read-only one needs no grant and still runs.
    expect(text).toContain("Now:  M a.txt");
  });

  it("puts a failing command's exit code after its output", async () => {
    writeCommand(
      join(session.project, ".claude", "commands"),
      "bad",
      "allowed-tools: Bash(git rev-parse:*)",
      "Ref: !`git rev-parse --verify no-such-ref`",
    );
    const text = await expandAndRun("/bad");
    expect(text).toMatch(/^Ref: fatal: Needed a single revision\n\[exit code 128\]$/);
  });

  it("a deny rule beats the frontmatter's allow", async () => {
    writeCommand(
      join(session.project, ".claude", "commands"),
      "st",
      "allowed-tools: Bash(git add:*), Bash(git status:*)",
      STAGE_AND_SHOW,
    );
    const text = await expandAndRun("/st", { base: contextWith({ deny: ["Bash(git add:*)"] }, [session.project]) });
    expect(status()).toBe(" M a.txt\n");
    expect(text).toMatch(/\[warden did not run `git add a\.txt`: [^\]]*denied/);
  });

  it("an untrusted project's command grants nothing", async () => {
    writeCommand(
      join(session.project, ".claude", "commands"),
      "st",
      "allowed-tools: Bash(git add:*), Bash(touch:*)",
      "!`git add a.txt`\n!`touch made.txt`",
    );
    const text = await expandAndRun("/st", { trusted: false });
    expect(status()).toBe(" M a.txt\n");
    expect(existsSync(join(session.project, "made.txt"))).toBe(false);
    expect(text).toContain("[warden did not run `git add a.txt`:");
    expect(text).toContain("[warden did not run `touch made.txt`:");
  });

  it("a plugin's command runs its marks the same way", async () => {
    const plugin = mkdtempSync(join(home, "plugin-"));
    writeCommand(join(plugin, "commands"), "st", "allowed-tools: Bash(git add:*), Bash(git status:*)", STAGE_AND_SHOW);
    const text = await expandAndRun("/tools:st", { plugin });
    expect(status()).toBe("M  a.txt\n");
    expect(text).toBe("Staged:\n\nNow: M  a.txt\nWrite a commit message.");
  });

  it("a prompt the person typed is never run, only a command's text", async () => {
    writeCommand(join(session.project, ".claude", "commands"), "st", "description: x", "hi");
    const catalog = await discoverSkills({ cwd: session.project, projectTrusted: true });
    const typed = await expandPrompt("look at !`touch made.txt`", catalog, contextWith({}), session.project, () => {});
    expect(typed.ok && typed.fromFile).toBeFalsy();
  });

  it("an inline skill the model loads with the Skill tool runs its marks with the skill's grants", async () => {
    const folder = join(session.project, ".claude", "skills", "stage");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "SKILL.md"),
      `---\nname: stage\ndescription: stage a.txt\nallowed-tools: Bash(git add:*)\n---\n${STAGE_AND_SHOW}\n`,
    );
    const catalog = await discoverSkills({ cwd: session.project, projectTrusted: true });
    const skillTool = createSkillTool(catalog);
    const plain = contextWith({}, [session.project]);
    const allowSkill = {
      source: "session",
      behavior: "allow",
      value: { toolName: "Skill", ruleContent: "stage" },
    } as const;
    const base: ToolPermissionContext = { ...plain, rules: { ...plain.rules, allow: [allowSkill] } };
    session.context.setAppState((state) => ({ ...state, toolPermissionContext: base }));
    const context = {
      ...session.context,
      options: { ...session.context.options, tools: [...session.context.options.tools, skillTool] },
    };
    const outcome = await runToolUse(
      { type: "tool_use", id: "toolu_skill", name: "Skill", input: { skill: "stage" } },
      context,
      createCanUseTool({ askHandler: createHeadlessAskHandler() }),
      undefined,
    );
    expect(outcome.result.is_error, JSON.stringify(outcome.result)).toBeFalsy();
    expect(status()).toBe("M  a.txt\n");
    const loaded = JSON.stringify(outcome.newMessages);
    expect(loaded).toContain("Now: M  a.txt");
    expect(loaded).not.toContain("!`");
    // The grant held for the skill's marks only: the session's own rules are as they were.
    expect(session.context.getAppState().toolPermissionContext).toBe(base);
  });
});
