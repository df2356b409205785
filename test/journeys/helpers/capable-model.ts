// What a capable model does with the failing test, as replay turns (src/providers/replay.ts):
// explore (Glob, Grep, Read), run the tests and see them fail, fix the line, run them again, say
// what it did. `{{cwd}}` is the session's folder. Surfaces put their own turns around these.
import { TEST_COMMAND } from "./bug-repo.js";

export type Turn = Record<string, unknown>;

export const text = (value: string) => ({ type: "text", text: value });
export const call = (id: string, name: string, input: Record<string, unknown>) => ({
  type: "tool_use",
  id,
  name,
  input,
});

/** A turn of the main loop (or, with `agent`, of the subagent of that description). */
export function turn(content: object[], extra: Record<string, unknown> = {}): Turn {
  return { content, ...extra };
}

/** Looking around: where the code and its test are, what the test expects, what the code does. */
export function exploreTurns(prefix = "x"): Turn[] {
  return [
    turn([text("Let me find the code and its test."), call(`${prefix}1`, "Glob", { pattern: "**/*.js" })]),
    turn([call(`${prefix}2`, "Grep", { pattern: "sum\\(", output_mode: "content" })]),
    turn([call(`${prefix}3`, "Read", { file_path: "{{cwd}}/src/sum.js" })]),
  ];
}

export const runTests = (id: string) => call(id, "Bash", { command: TEST_COMMAND, description: "Run the tests" });

export const fixEdit = (id: string) =>
  call(id, "Edit", { file_path: "{{cwd}}/src/sum.js", old_string: "return a - b;", new_string: "return a + b;" });

/** Explore, see the test fail, fix, see it pass, report. */
export function bugFixTurns(prefix = "f"): Turn[] {
  return [
    ...exploreTurns(`${prefix}x`),
    turn([text("Running the tests to see the failure."), runTests(`${prefix}1`)]),
    turn([text("sum subtracts; it should add."), fixEdit(`${prefix}2`)]),
    turn([runTests(`${prefix}3`)]),
    turn([text("Fixed: `sum` now adds, and the test passes.")]),
  ];
}
