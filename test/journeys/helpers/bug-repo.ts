// The journeys' fixture: a tiny node project whose one test fails (sum subtracts), committed in a
// git repository of its own, with readers for what a user checks afterwards (does the test pass,
// what changed in git).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../loop/helpers.js";

export const BUGGY_SUM = "export function sum(a, b) {\n  return a - b;\n}\n";
export const FIXED_SUM = "export function sum(a, b) {\n  return a + b;\n}\n";
/** The command the scripted model runs the tests with (node's own runner: no npm start-up). */
export const TEST_COMMAND = "node --test test/";

const FILES: Record<string, string> = {
  "package.json": `${JSON.stringify({ name: "tiny-sum", type: "module", scripts: { test: TEST_COMMAND } }, null, 2)}\n`,
  "src/sum.js": BUGGY_SUM,
  "test/sum.test.js": [
    'import assert from "node:assert/strict";',
    'import { test } from "node:test";',
    'import { sum } from "../src/sum.js";',
    "",
    'test("sum adds", () => {',
    "  assert.equal(sum(2, 3), 5);",
    "});",
    "",
  ].join("\n"),
  "README.md": "# tiny-sum\n\nAdds numbers.\n",
};

/** A fresh copy of the project, committed; its real path (macOS-style /tmp links resolved). */
export function bugRepo(prefix = "warden-journey-"): string {
  const cwd = realpathSync(tempDir(prefix));
  for (const [name, content] of Object.entries(FILES)) {
    mkdirSync(join(cwd, name, ".."), { recursive: true });
    writeFileSync(join(cwd, name), content);
  }
  git(cwd, "init", "-q", "-b", "main");
  git(cwd, "add", "-A");
  git(cwd, "-c", "user.name=Journey", "-c", "user.email=journey@example.com", "commit", "-qm", "tiny-sum");
  return cwd;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" });
}

/** True when the project's tests pass, run as the user would. */
export function testsPass(cwd: string): boolean {
  return spawnSync(process.execPath, ["--test", "test/"], { cwd, encoding: "utf8" }).status === 0;
}

export function sumSource(cwd: string): string {
  return readFileSync(join(cwd, "src/sum.js"), "utf8");
}

/** `git diff` of the working tree, its +/- lines only. */
export function changedLines(cwd: string): string[] {
  return git(cwd, "diff", "--unified=0")
    .split("\n")
    .filter((line) => /^[+-](?![+-])/.test(line));
}
