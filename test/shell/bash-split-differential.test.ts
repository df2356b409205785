// Command splitting checked against real bash: random scripts of printf calls joined by `;`,
// `&&`, newlines, groups and subshells, with comments, mid-word `#`, escaped operators and
// quoted separators mixed in. Every printf bash runs must be a part the analysis found, with the
// same words, in the same order. Only printf runs (each call marks itself with its number).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeCommand } from "../../src/shell/analysis/index.js";
import { type BashRun, runBashScripts } from "../helpers/bash-batch.js";

function makeRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

const WORDS = [
  "a",
  "b#c",
  "'x;y'",
  '"p && q"',
  "\\;",
  "\\&",
  "\\|",
  "'#'",
  "e\\ f",
  "'it'\"'\"'s'",
  "{1,2}",
  "$'\\x41'",
  '"a\\"b"',
  "z\\#",
];
const SEPARATORS = [" ; ", " && ", "\n", ";", " ;\n"];
const COMMENTS = ["", "", "", " # note", ' # it\'s "quoted"', " #;printf '%s\\0' X"];

function script(random: (n: number) => number): { text: string; calls: number } {
  let calls = 0;
  const call = () => {
    calls += 1;
    const words = Array.from({ length: random(3) }, () => WORDS[random(WORDS.length)]).join(" ");
    return `printf '%s\\0' M${calls} ${words}`.trimEnd();
  };
  const statements: string[] = [];
  const count = 2 + random(3);
  for (let i = 0; i < count; i += 1) {
    const shape = random(4);
    const body = shape === 0 ? `{ ${call()}; ${call()}; }` : shape === 1 ? `( ${call()} )` : call();
    const comment = COMMENTS[random(COMMENTS.length)] as string;
    const separator = i === count - 1 ? "" : (SEPARATORS[random(SEPARATORS.length)] as string);
    // A comment runs to the end of the line, so only a newline may follow it.
    statements.push(comment === "" ? body + separator : `${body}${comment}\n`);
  }
  return { text: statements.join(""), calls };
}

const bashAvailable = spawnSync("bash", ["--version"]).status === 0;

describe.runIf(bashAvailable)("simple commands agree with bash", () => {
  it("for 150 random scripts of printf calls", async () => {
    const random = makeRandom(777);
    const dir = mkdtempSync(join(tmpdir(), "warden-bash-split-"));
    const texts = Array.from({ length: 150 }, () => script(random).text);
    const runs = runBashScripts(texts, dir);
    const mismatches: string[] = [];
    for (const [round, text] of texts.entries()) {
      // Group bash's output by the M<n> markers each call prints first.
      const fromBash: string[][] = [];
      for (const value of (runs[round] as BashRun).stdout.split("\0").slice(0, -1)) {
        if (/^M\d+$/.test(value)) fromBash.push([value]);
        else fromBash[fromBash.length - 1]?.push(value);
      }
      const analysis = await analyzeCommand(text, dir);
      const ours = analysis.parts
        .map((p) => p.command.words.map((w) => w.value))
        .filter((w) => w[0] === "printf")
        .map((w) => w.slice(2));
      if (JSON.stringify(ours) !== JSON.stringify(fromBash))
        mismatches.push(
          `${JSON.stringify(text)}\n  bash: ${JSON.stringify(fromBash)}\n  ours: ${JSON.stringify(ours)}`,
        );
    }
    expect(mismatches).toEqual([]);
  });
});
