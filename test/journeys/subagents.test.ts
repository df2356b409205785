// Journey: the fix delegated to a subagent in a git worktree of its own, then a plan asked for in
// plan mode (the built CLI, -p with stream-json, a scripted capable model). The agent is handed
// the parent's absolute path, as a model does; isolation must keep it in its worktree. In plan
// mode nothing is written and the plan reaches the user. What is checked: both checkouts on disk,
// git, and the stream a host reads (the agent's messages under its Agent call).
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectDataDir } from "../../src/config/paths.js";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { bugRepo, FIXED_SUM, git, sumSource, TEST_COMMAND } from "./helpers/bug-repo.js";
import { call, runTests, text, turn } from "./helpers/capable-model.js";

type Line = Record<string, unknown>;

function warden(cwd: string, turns: object[], args: string[], home = tempDir("warden-journey-home-")) {
  const script = writeScript(tempDir("warden-journey-script-"), turns);
  return runCli(["--model", `replay:${script}`, "--output-format", "stream-json", "--verbose", ...args], {
    home,
    processCwd: cwd,
  });
}

/** The result block for a call, and the line that carried it. */
function resultFor(lines: Line[], id: string): { text: string; line: Line } | undefined {
  for (const line of lines) {
    const content = (line.message as { content?: unknown } | undefined)?.content;
    if (line.type !== "user" || !Array.isArray(content)) continue;
    for (const block of content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type === "tool_result" && block.tool_use_id === id)
        return { text: typeof block.content === "string" ? block.content : JSON.stringify(block.content), line };
    }
  }
  return undefined;
}

const AGENT = "fix sum in a worktree";

describe("journey: subagents with worktree isolation, and plan mode", () => {
  it("an isolated agent fixes the bug on its own branch; the parent's checkout is untouched", async () => {
    const cwd = bugRepo();
    const run = await warden(
      cwd,
      [
        turn([
          text("I'll have an agent fix it in a worktree."),
          call("m1", "Agent", {
            description: AGENT,
            prompt: `The test in ${cwd}/test/sum.test.js fails; fix ${cwd}/src/sum.js and run the tests.`,
            isolation: "worktree",
          }),
        ]),
        // The agent first edits the absolute path it was given: the parent's checkout.
        turn([call("a1", "Edit", { file_path: `${cwd}/src/sum.js`, old_string: "a - b", new_string: "a + b" })], {
          agent: AGENT,
        }),
        turn([call("a2", "Bash", { command: "sed -i 's/a - b/a + b/' src/sum.js" })], { agent: AGENT }),
        turn([runTests("a3")], { agent: AGENT }),
        turn([text("Fixed src/sum.js in my worktree; the test passes.")], { agent: AGENT }),
        turn([text("The agent fixed it on its own branch.")]),
      ],
      [
        "-p",
        "The sum test fails; delegate the fix.",
        "--permission-mode",
        "acceptEdits",
        "--allowedTools",
        "Bash(sed -i:*)",
        `Bash(${TEST_COMMAND})`,
      ],
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success" });

    // The parent's checkout: untouched, whatever path the agent was handed.
    expect(sumSource(cwd)).toContain("a - b");
    expect(git(cwd, "status", "--porcelain", "--untracked-files=no")).toBe("");
    const parentEdit = resultFor(lines, "a1");
    expect(parentEdit?.text).not.toMatch(/has been updated|successfully/i);

    // The agent's own messages are streamed under its Agent call.
    expect(parentEdit?.line.parent_tool_use_id).toBe("m1");
    expect(resultFor(lines, "a3")?.text).toContain("pass 1");

    // Its worktree is kept, on a branch of its own, with the fix.
    const report = resultFor(lines, "m1")?.text ?? "";
    const kept = /worktree (\S+) \(branch (\S+)\), kept/.exec(report);
    expect(kept, report).not.toBeNull();
    const [, worktree, branch] = kept as RegExpExecArray;
    expect(readFileSync(join(String(worktree), "src/sum.js"), "utf8")).toBe(FIXED_SUM);
    expect(git(cwd, "worktree", "list")).toContain(String(branch));
  }, 60_000);

  it("plan mode: nothing is written, and the plan (with a prompt pattern for node) reaches the user", async () => {
    const cwd = bugRepo();
    const home = tempDir("warden-journey-home-");
    const sessionId = randomUUID();
    // Where this session's plan file is (the plan-mode reminder names it to the model).
    const planFile = join(
      projectDataDir(cwd).replace(/^.*\/projects\//, join(home, "projects/")),
      sessionId,
      "plan.md",
    );
    const plan = "# Fix sum\n1. Make `sum` add in src/sum.js.\n2. Run `node --test test/`.";
    const run = await warden(
      cwd,
      [
        turn([call("p1", "Read", { file_path: "{{cwd}}/src/sum.js" })]),
        turn([call("p2", "Edit", { file_path: "{{cwd}}/src/sum.js", old_string: "a - b", new_string: "a + b" })]),
        turn([
          call("p3", "Write", { file_path: planFile, content: plan }),
          call("p4", "ExitPlanMode", { allowedPrompts: [{ tool: "Bash", prompt: "node --test test/" }] }),
        ]),
        turn([text(`Here is my plan:\n${plan}`)]),
      ],
      ["-p", "Plan the fix for the failing sum test.", "--permission-mode", "plan", "--session-id", sessionId],
      home,
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(sumSource(cwd)).toContain("a - b");
    expect(resultFor(lines, "p2")?.text).toMatch(/plan mode/i);
    // The call was taken (not refused for its node pattern); headless plan mode cannot approve it.
    expect(readFileSync(planFile, "utf8")).toBe(plan);
    const exit = resultFor(lines, "p4")?.text ?? "";
    expect(exit).not.toMatch(/InputValidationError|invalid|cannot be parsed|missing or empty/i);
    // Headless plan mode cannot approve: the refusal carries the plan, and the model answers with it.
    expect(exit).toContain("Make `sum` add in src/sum.js.");
    expect(exit).toContain("give the plan as your final answer");
    // The plan's last line stands alone, and the advice is what works in -p (no rule that skips the review).
    expect(exit).toContain("2. Run `node --test test/`.\n\n");
    expect(exit).not.toContain('--allowedTools "ExitPlanMode"');
    expect(exit).toContain("runs again without plan mode");
    const result = lines.at(-1) as Line;
    expect(result).toMatchObject({ type: "result", subtype: "success" });
    expect(String(result.result)).toContain("Make `sum` add in src/sum.js.");
    expect(existsSync(join(cwd, ".worktrees"))).toBe(false);
  }, 60_000);
});
