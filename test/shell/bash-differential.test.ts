// Word recovery checked against real bash: random words built from quoting, escapes, ANSI-C
// strings, brace expansion, default $IFS and line continuations are handed to bash's printf
// builtin, and the arguments bash passes must equal the words recovered from the text. Only
// printf runs; the words hold no substitutions, globs or operators, so nothing else can. Words
// the analysis reports as known only at run time are not compared (that answer asks anyway).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash words, where ${...} is bash syntax.
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

const PLAIN = "abcxyz019-_.=/:+@%^";
const QUOTED_EXTRA = " ;|&<>()#*?[]{},~!";

function pick(random: (n: number) => number, text: string, count: number): string {
  let out = "";
  for (let i = 0; i < count; i += 1) out += text[random(text.length)];
  return out;
}

function piece(random: (n: number) => number): string {
  switch (random(11)) {
    case 9:
      return ["$IFS", "${IFS}", "${IFS:0:1}"][random(3)] as string;
    case 10:
      return "\\\n";
    case 0:
      return pick(random, PLAIN, 1 + random(4));
    case 1:
      return `'${pick(random, `${PLAIN}${QUOTED_EXTRA}"\\$\``, random(5))}'`;
    case 2: {
      const inner = Array.from(
        { length: random(4) },
        () => ["\\\\", '\\"', "\\$", "\\`", pick(random, `${PLAIN}${QUOTED_EXTRA}'`, 1)][random(5)],
      ).join("");
      return `"${inner}"`;
    }
    case 3:
      return `\\${pick(random, ` ;|&'"$abc{}()<>#*`, 1)}`;
    case 4: {
      const inner = Array.from(
        { length: 1 + random(3) },
        () => ["\\x41", "\\101", "\\u00e9", "\\t", "\\'", "\\\\", "q", "\\x2d"][random(8)],
      ).join("");
      return `$'${inner}'`;
    }
    case 5:
      return `{${Array.from({ length: 2 + random(2) }, () => pick(random, "abc12-", 1 + random(2))).join(",")}}`;
    case 6:
      return ["{1..3}", "{a..c}", "{3..1}", "{x,}"][random(4)] as string;
    case 7:
      return ["''", '""'][random(2)] as string;
    default:
      return `$"${pick(random, PLAIN, 1 + random(3))}"`;
  }
}

function randomWord(random: (n: number) => number): string {
  // A plain first piece keeps a word from starting with `{`, which would begin a group.
  return pick(random, "abc", 1) + Array.from({ length: 1 + random(3) }, () => piece(random)).join("");
}

const bashAvailable = spawnSync("bash", ["--version"]).status === 0;

describe.runIf(bashAvailable)("recovered words agree with bash", () => {
  it("for 100 random commands of 5 words each", async () => {
    const random = makeRandom(20261129);
    const dir = mkdtempSync(join(tmpdir(), "warden-bash-diff-"));
    const mismatches: string[] = [];
    let unknown = 0;
    const commands = Array.from({ length: 100 }, () => {
      const words = Array.from({ length: 5 }, () => randomWord(random));
      return `printf '%s\\0' ${words.join(" ")}`;
    });
    const runs = runBashScripts(commands, dir);
    for (const [round, command] of commands.entries()) {
      const run = runs[round] as BashRun;
      expect(run.status, command).toBe(0);
      const fromBash = run.stdout.split("\0").slice(0, -1);
      const analysis = await analyzeCommand(command, dir);
      const fields = analysis.parts[0]?.command.words.slice(2) ?? [];
      if (fields.some((w) => !w.literal)) {
        unknown += 1;
        continue;
      }
      const recovered = fields.map((w) => w.value);
      if (JSON.stringify(recovered) !== JSON.stringify(fromBash))
        mismatches.push(`${command}\n  bash: ${JSON.stringify(fromBash)}\n  ours: ${JSON.stringify(recovered)}`);
    }
    expect(mismatches).toEqual([]);
    expect(unknown).toBeLessThan(20);
  });
});
