// A command holding a `*` glob as written (`node --test test/*.test.js`) used to be offered no
// "don't ask again" rule at all: a rule reads `*` as a wildcard, which would allow any text in its
// place. It is now offered its exact command with each `*` spelled `\*` (Claude Code's escape),
// and that rule allows exactly that glob: not another argument, not the quoted `'*.test.js'`
// (one file of that name), not an extra word. Through `warden permissions check`, in process.
import { describe, expect, it } from "vitest";
import { permissionsInProcess } from "../check-in-process.js";
import { tempDir } from "../helpers.js";

interface Checked {
  behavior: string;
  suggestedRules: string[];
}

async function check(command: string, allow: string[] = []): Promise<Checked> {
  const cwd = tempDir("warden-glob-suggest-");
  const args = ["check", "Bash", JSON.stringify({ command }), "--cwd", cwd];
  for (const rule of allow) args.push("--allowedTools", rule);
  const run = await permissionsInProcess(args, { home: tempDir("warden-glob-home-"), cwd });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Checked;
}

describe("suggestions for a command with a `*` glob", () => {
  it("offers the exact command with the glob escaped, and that rule stops the question", async () => {
    const asked = await check("node --test test/*.test.js");
    expect(asked.behavior).toBe("ask");
    expect(asked.suggestedRules).toEqual(["Bash(node --test test/\\*.test.js)"]);
    const again = await check("node --test test/*.test.js", ["Bash(node --test test/\\*.test.js)"]);
    expect(again.behavior).toBe("allow");
  });

  it("the offered rule is never wider than the command", async () => {
    const rule = ["Bash(node --test test/\\*.test.js)"];
    // Another argument in the glob's place, the star quoted (one file named so), a word more.
    for (const command of [
      "node --test test/evil.js",
      "node --test test/x.test.js",
      "node --test 'test/*.test.js'",
      "node --test test/*.test.js --import ./evil.mjs",
      "node --test test/*.test.js test/*.js",
    ]) {
      expect((await check(command, rule)).behavior, command).toBe("ask");
    }
  });

  it("several globs and plain words together; a program with a safe prefix keeps its prefix", async () => {
    expect((await check("python3 gen.py *.csv out/*")).suggestedRules).toEqual([
      "Bash(python3 gen.py \\*.csv out/\\*)",
    ]);
    expect((await check("npm install *.tgz")).suggestedRules).toEqual(["Bash(npm install:*)"]);
    // A deleting program keeps to the glob as written (never `rm:*`).
    expect((await check("rm *.log")).suggestedRules).toEqual(["Bash(rm \\*.log)"]);
  });

  it("still offers nothing where a rule cannot say the glob: a quoted star, `?` and `[...]`", async () => {
    for (const command of ["node x.js '*'", "node x.js file?.txt", "node x.js [ab].txt", 'node x.js "a"*.txt']) {
      const checked = await check(command);
      expect(checked.behavior, command).toBe("ask");
      expect(checked.suggestedRules, command).toEqual([]);
    }
  });

  it("an allow rule no longer lets a plain word stand for a glob: `Bash(node x.js file?.txt)` allows only the literal name", async () => {
    expect((await check("node x.js 'file?.txt'", ["Bash(node x.js file?.txt)"])).behavior).toBe("allow");
    expect((await check("node x.js file?.txt", ["Bash(node x.js file?.txt)"])).behavior).toBe("ask");
  });
});
