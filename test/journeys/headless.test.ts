// Journey: the failing test fixed from a CI job (`warden -p`, the built CLI, a scripted capable
// model): the fix with a JSON result, a follow-up in the same session with `--resume` and
// stream-json, a run cut by `--max-turns`, and a `--json-schema` report of the test state. What is
// checked is what a CI script reads (result lines, exit codes) and what is left in the repository.
import { describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { bugRepo, changedLines, sumSource, TEST_COMMAND, testsPass } from "./helpers/bug-repo.js";
import { bugFixTurns, call, exploreTurns, runTests, text, turn } from "./helpers/capable-model.js";

const usage = { input_tokens: 100, output_tokens: 10 };
const withUsage = (turns: object[]) => turns.map((t) => ({ ...t, usage }));

function headless(cwd: string, home: string, turns: object[], args: string[]) {
  const script = writeScript(tempDir("warden-journey-script-"), withUsage(turns));
  return runCli(["--model", `replay:${script}`, ...args], { home, processCwd: cwd });
}

const resultOf = (stdout: string) => jsonLines(stdout).find((line) => line.type === "result") ?? {};

describe("journey: fixing a bug headless (-p)", () => {
  it("fixes with --output-format json, follows up with --resume in stream-json, in one session", async () => {
    const cwd = bugRepo();
    const home = tempDir("warden-journey-home-");
    const allowed = ["--allowedTools", "Edit", `Bash(${TEST_COMMAND})`];

    const fix = await headless(cwd, home, bugFixTurns(), [
      "-p",
      "The sum test fails; fix it.",
      "--output-format",
      "json",
      ...allowed,
    ]);
    expect(fix.code, fix.stderr).toBe(0);
    const result = JSON.parse(fix.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      num_turns: 7,
      result: "Fixed: `sum` now adds, and the test passes.",
      usage: { input_tokens: 700, output_tokens: 70 },
      permission_denials: [],
    });
    expect(testsPass(cwd)).toBe(true);
    expect(changedLines(cwd)).toEqual(["-  return a - b;", "+  return a + b;"]);

    // The follow-up: a test for negative numbers, in the same session, streamed.
    const follow = await headless(
      cwd,
      home,
      [
        turn([call("n1", "Read", { file_path: "{{cwd}}/test/sum.test.js" })]),
        turn([
          call("n2", "Edit", {
            file_path: "{{cwd}}/test/sum.test.js",
            old_string: "  assert.equal(sum(2, 3), 5);\n",
            new_string: "  assert.equal(sum(2, 3), 5);\n  assert.equal(sum(-2, -3), -5);\n",
          }),
        ]),
        turn([runTests("n3")]),
        turn([text("Added a negative case; the tests pass.")]),
      ],
      [
        "--resume",
        String(result.session_id),
        "-p",
        "Add a test for negative numbers.",
        "--output-format",
        "stream-json",
        "--verbose",
        ...allowed,
      ],
    );
    expect(follow.code, follow.stderr).toBe(0);
    const lines = jsonLines(follow.stdout);
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init", session_id: result.session_id });
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", num_turns: 4 });
    // Each call is streamed in its assistant message before its result comes back.
    const positions = (id: string) => ({
      call: lines.findIndex((l) => l.type === "assistant" && JSON.stringify(l.message).includes(`"id":"${id}"`)),
      result: lines.findIndex((l) => l.type === "user" && JSON.stringify(l.message).includes(`"tool_use_id":"${id}"`)),
    });
    for (const id of ["n1", "n2", "n3"]) {
      const at = positions(id);
      expect(at.call).toBeGreaterThan(0);
      expect(at.result).toBeGreaterThan(at.call);
    }
    const testRun = lines.find((l) => l.type === "user" && JSON.stringify(l.message).includes('"tool_use_id":"n3"'));
    expect(JSON.stringify(testRun)).toContain("pass 1");
    expect(testsPass(cwd)).toBe(true);
    expect(changedLines(cwd)).toContain("+  assert.equal(sum(-2, -3), -5);");
  }, 60_000);

  it("--max-turns stops a model that keeps exploring; --json-schema reports the test state in whole-run figures", async () => {
    const cwd = bugRepo();
    const home = tempDir("warden-journey-home-");
    const capped = await headless(
      cwd,
      home,
      [...exploreTurns(), turn([text("never reached")])],
      ["-p", "Look around.", "--output-format", "json", "--max-turns", "2"],
    );
    expect(JSON.parse(capped.stdout)).toMatchObject({
      type: "result",
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 2,
      usage: { input_tokens: 200 },
    });
    expect(capped.code).toBe(1);
    expect(sumSource(cwd)).toContain("a - b");

    // The report: the model runs the tests, answers in prose first (sent back for the structured
    // form), then calls StructuredOutput. Every request of the run is in num_turns and usage.
    const schema = {
      type: "object",
      properties: { passing: { type: "boolean" }, failing: { type: "array", items: { type: "string" } } },
      required: ["passing", "failing"],
    };
    const report = await headless(
      cwd,
      home,
      [
        turn([runTests("r1")]),
        turn([text("One test fails: sum adds.")]),
        turn([call("r2", "StructuredOutput", { passing: false, failing: ["sum adds"] })]),
        turn([text("Reported.")]),
      ],
      [
        "-p",
        "Run the tests and report.",
        "--output-format",
        "json",
        "--json-schema",
        JSON.stringify(schema),
        "--allowedTools",
        `Bash(${TEST_COMMAND})`,
        "--max-turns",
        "4",
      ],
    );
    expect(report.code, report.stderr).toBe(0);
    const reported = resultOf(report.stdout);
    expect(reported).toMatchObject({
      subtype: "success",
      structured_output: { passing: false, failing: ["sum adds"] },
    });
    expect(reported.num_turns).toBeGreaterThanOrEqual(3);
    expect(reported.num_turns).toBeLessThanOrEqual(4);
    expect((reported.usage as { input_tokens: number }).input_tokens).toBe(100 * Number(reported.num_turns));
  }, 60_000);
});
