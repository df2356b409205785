// Journey: a person fixes a failing test with warden in a terminal (the built binary in tmux, a
// scripted capable model). An Explore agent looks first (its calls shown under it as it works);
// the person approves a test run once, edits for good, declines a commit with words; stops a slow
// command with ESC; types a message while a command runs; cycles the modes; compacts; quits; and
// `--continue` opens on the conversation. What is checked is what the person sees and what is
// left on disk.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptWhen } from "../helpers/tui-project.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { bugRepo, changedLines, git, testsPass } from "./helpers/bug-repo.js";
import { call, fixEdit, runTests, text, turn } from "./helpers/capable-model.js";
import { answer, decline, terminalProject } from "./helpers/terminal.js";

afterEach(killTerminals);

const slow = `sleep 10.${process.pid}`;
/** The file the "short check" waits for (outside the repository: git status stays clean). */
const GO = join(tempDir("warden-journey-go-"), "typed");

function script() {
  return [
    // 1. The bug fix.
    turn([
      text("Let me have the code explored first."),
      call("a1", "Agent", {
        description: "find the failing test",
        prompt: "Find the failing test and the code it tests.",
        subagent_type: "Explore",
      }),
    ]),
    turn([call("e1", "Glob", { pattern: "**/*.js" })], { agent: "find the failing test" }),
    turn([call("e2", "Grep", { pattern: "sum\\(" })], { agent: "find the failing test" }),
    turn([call("e3", "Read", { file_path: "{{cwd}}/test/sum.test.js" })], { agent: "find the failing test" }),
    // A pause while the agent "thinks", so its calls so far can be seen under it.
    turn([text("test/sum.test.js expects sum(2, 3) to be 5; src/sum.js subtracts.")], {
      agent: "find the failing test",
      delay_ms: 1_500,
    }),
    turn([text("Running the tests first."), call("t1", "Read", { file_path: "{{cwd}}/src/sum.js" }), runTests("t2")]),
    turn([text("It subtracts; it should add."), fixEdit("t3")]),
    turn([
      call("t4", "Edit", {
        file_path: "{{cwd}}/src/sum.js",
        old_string: "export function sum",
        new_string: "/** a plus b. */\nexport function sum",
      }),
    ]),
    turn([call("t5", "Bash", { command: "git commit -am 'Fix sum'", description: "Commit the fix" })]),
    turn([text("Understood, the commit is yours."), runTests("t6")]),
    turn([text("Fixed: sum adds now, and the test passes.")]),
    // 2. A slow command, stopped with ESC.
    turn([call("s1", "Bash", { command: `echo started; ${slow}`, description: "Slow check" })]),
    // 3. A message typed while a command runs.
    // It runs until the test has typed the message (a file it waits for), not for a fixed time.
    turn([
      call("q1", "Bash", {
        command: `echo working; until [ -e ${GO} ]; do sleep 0.1; done`,
        description: "Short check",
      }),
    ]),
    turn([text("Noted: I will also look at the README.")]),
    // 4. /compact: the summary request.
    turn([text("Summary: sum.js fixed (a - b became a + b); the test passes; the user reviews commits.")]),
    // 5. After the compaction.
    turn([text("You're welcome.")]),
  ];
}

describe("journey: fixing a bug in the interactive UI (tmux)", () => {
  it("explores with an agent, asks (once, always, no with words), ESC, queue, modes, /compact, --continue", async () => {
    const cwd = bugRepo();
    const p = terminalProject(cwd, script());
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "The sum test fails. Find out why and fix it.");

    // The Explore agent's calls, under it by its description, while it works.
    const exploring = await t.waitFor(/Explore\(find the failing test\)[^\n]*\n\s+⎿\s+Search\(\*\*\/\*\.js\)/);
    expect(exploring).not.toMatch(/agent-[0-9a-f]{8}/);
    const working = await t.waitFor(/Search\(sum\\\(\)[^\n]*\n\s+Read\(test\/sum\.test\.js\)/);
    expect(working).toMatch(/Explore\(find the failing test\)/);
    // Folded once it reported.
    await t.waitFor(/Explore\(find the failing test\)\n\s+⎿\s+Done \(3 tool uses · \d+s\)/);

    // Once: the first test run.
    await answer(t, "Bash(node --test test/)", "1");
    await t.waitFor(/not ok 1 - sum adds/);
    // Always: the edit, which saves a rule; the second edit is not asked about.
    const editQuestion = await answer(t, "Edit(src/sum.js)", "2");
    expect(editQuestion).toMatch(/- +return a - b;/);
    expect(editQuestion).toMatch(/\+ +return a \+ b;/);
    // No, with words: the commit.
    await decline(t, "Bash(git commit -am 'Fix sum')", "do not commit, I review first");
    await answer(t, "Bash(node --test test/)", "1");
    const fixed = await t.waitFor("Fixed: sum adds now, and the test passes.");
    expect(fixed).not.toContain("Do you want to proceed?");

    expect(testsPass(cwd)).toBe(true);
    expect(changedLines(cwd)).toEqual(["+/** a plus b. */", "-  return a - b;", "+  return a + b;"]);
    expect(git(cwd, "log", "--oneline").trim().split("\n")).toHaveLength(1);
    const local = JSON.parse(readFileSync(join(cwd, ".warden/settings.local.json"), "utf8"));
    expect(local.permissions.allow).toEqual(["Edit(./src/**)"]);
    const afterFix = await transcriptWhen(p, (l) => JSON.stringify(l).includes("do not commit, I review first"));
    expect(JSON.stringify(afterFix)).toContain("do not commit, I review first");

    // ESC during a running command: its output stays on screen and reaches the model.
    await submit(t, "Run the slow check.");
    // (echo and sleep only read: no question.)
    await t.waitFor(/Bash\(echo started; sleep [^\n]*\n\s+started\b/);
    t.press("Escape");
    const stopped = await t.waitFor("[Request interrupted by user]");
    expect(stopped).toMatch(/Bash\(echo started; sleep [^\n]*\n\s+⎿\s+Interrupted by the user[^\n]*\n.*\n\s+started\b/);
    const interrupted = await transcriptWhen(p, (l) => JSON.stringify(l).includes("[Request interrupted by user"));
    const slowResult = interrupted
      .flatMap((line) => (line.message as { content?: unknown[] } | undefined)?.content ?? [])
      .find((block) => (block as { tool_use_id?: string }).tool_use_id === "s1");
    expect(JSON.stringify(slowResult)).toContain("started");

    // A message typed while a command runs waits for the model's next turn.
    await submit(t, "Run the short check.");
    await t.waitFor("Bash(echo working; until");
    await submit(t, "also check the README");
    await t.waitFor("queued");
    writeFileSync(GO, "");
    await t.waitFor("Noted: I will also look at the README.");

    // Mode cycling, shown in the status line.
    t.press("BTab");
    await t.waitFor("accept edits on");
    t.press("BTab");
    await t.waitFor("plan mode on");
    t.press("BTab");
    await t.waitFor(READY);

    // /compact, then one more exchange.
    await submit(t, "/compact");
    await t.waitFor(/Conversation compacted \(manual\)/);
    await submit(t, "thanks");
    await t.waitFor("You're welcome.");
    t.press("C-d");
    expect(await t.exitCode()).toBe(0);

    // --continue opens on the conversation so far.
    const again = writeScript(tempDir("warden-journey-script-"), [turn([text("Continuing.")])]);
    const resumed = p.start(["--continue"], {}, again);
    const screen = await resumed.waitFor("You're welcome.");
    expect(screen).toContain("Resumed session");
    expect(screen).toContain("earlier messages were compacted");
    expect(screen).toContain("> thanks");
  }, 120_000);
});
