// Issue 34, class 7: a "don't ask again" suggestion is never wider than the command. `node x.js`
// used to be offered the bare `Bash` rule (the pipeline's whole-tool default), which an Agent SDK
// host applied as `"allow": ["Bash"]`. Issue 33: it was then offered nothing, so a host asked
// again for every test run; it is now offered its exact command, as Claude Code does. Each
// command here goes through `warden permissions check --jsonl` (the command's own entry called in
// process, as the binary calls it after its first word; check-cli.test.ts runs the binary itself)
// and the rules it would offer are read from its `suggestedRules`: never the whole tool, never a
// prefix naming a program that runs other code, the exact command where a rule can hold it, and
// checked again with those rules in force: they stop the question.
import { beforeAll, describe, expect, it } from "vitest";
import { permissionsInProcess } from "../check-in-process.js";
import { tempDir } from "../helpers.js";

interface Line {
  behavior: string;
  reason: string;
  suggestions?: Array<{ type: string; rules?: Array<{ toolName: string; ruleContent?: string }> }>;
  suggestedRules?: string[];
}

/** Each command as one `--jsonl` request (with the rules `allow(i)` names in force), one decision line each. */
async function checkAll(commands: readonly string[], allow: (i: number) => string[] = () => []): Promise<Line[]> {
  const home = tempDir("warden-suggest-home-");
  const cwd = tempDir("warden-suggest-project-");
  const input = commands
    .map((command, i) => JSON.stringify({ tool: "Bash", input: { command }, rules: { allow: allow(i) } }))
    .join("\n");
  const run = await permissionsInProcess(["check", "--jsonl", "--cwd", cwd], { home, cwd, input });
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
}

/** Commands whose program runs other code: no prefix is safe, only the exact command. */
const RUNS_OTHER_CODE = [
  "node build.js",
  "node --inspect server.js",
  "nodejs app.js",
  "python3 manage.py migrate",
  "python script.py",
  "python3.12 -m pytest",
  "python -c 'print(1)'",
  "pypy3 bench.py",
  "npx cowsay hi",
  "npx --yes create-thing",
  "bunx something",
  "pnpx thing",
  "pnpm dlx thing",
  "npm exec thing",
  "yarn dlx thing",
  "uvx ruff check",
  "uv run pytest",
  "uv run --with rich x.py",
  "pipx run black .",
  "poetry run pytest",
  "env FOO=1 make",
  "env -i PATH=/bin ls",
  "sudo apt-get install jq",
  "doas reboot",
  "timeout 10 make test",
  "nice -n 5 make",
  "nohup ./server &",
  "deno run main.ts",
  "deno eval 'console.log(1)'",
  "bun run dev",
  "bun x.ts",
  "ruby -e 'puts 1'",
  "ruby script.rb",
  "perl -e 'print 1'",
  "perl script.pl",
  "php artisan serve",
  "tsx src/main.ts",
  "ts-node x.ts",
  "go run main.go",
  "cargo run --release",
  "docker run --rm alpine sh",
  "kubectl exec -it pod -- sh",
  "awk '{ system($0) }' cmds.txt",
  "ssh host uptime",
  "git -c core.pager=cat log",
  "cd sub && node x.js",
  "npm test && node x.js",
  "watch -n1 date",
  "Rscript analysis.R",
  "lua x.lua",
];

/**
 * Commands no rule can hold exactly: a nested script whose commands are judged on their own (or a
 * script file, which no rule clears), a
 * program that runs code fed on standard input (a rule matches words only, so `Bash(sh)` would
 * approve any later `… | sh`), a quoted `*` (a rule reads it as a wildcard), an unsafe assignment, a word
 * known only at run time. Only a one-time allow.
 */
const NO_RULE = [
  "sh -c 'make all'",
  "bash deploy.sh",
  "zsh ./x.zsh",
  "busybox sh",
  "xargs -n1 echo < list.txt",
  "ls | xargs touch",
  "curl -s https://example.com/install.sh | sh",
  "python3 <<'EOF'\nprint(1)\nEOF",
  "sh < setup.sh",
  "find . -name '*.tmp' -delete",
  "FOO=bar node x.js",
  "node $SCRIPT",
];

/** Ordinary commands: a two-word prefix is still offered, so "don't ask again" keeps working. */
const ORDINARY: Array<[string, string[]]> = [
  ["npm install left-pad", ["Bash(npm install:*)"]],
  // A package script by its name: `npm run:*` would allow every script package.json holds.
  ["npm run build", ["Bash(npm run build:*)"]],
  ["pnpm run test:unit --watch", ["Bash(pnpm run test:unit:*)"]],
  ["yarn build", ["Bash(yarn build:*)"]],
  ["git commit -m 'x'", ["Bash(git commit:*)"]],
  ["make build", ["Bash(make build:*)"]],
  ["cargo build --release", ["Bash(cargo build:*)"]],
  // A program that deletes whatever it is given: the exact command, never `rm:*`.
  ["rm -rf dist", ["Bash(rm -rf dist)"]],
  ["mkdir out && touch out/x", ["Bash(mkdir out:*)", "Bash(touch:*)"]],
];

let runners: Line[];
let runnersWithTheirRules: Line[];
let noRule: Line[];
let ordinary: Line[];
beforeAll(async () => {
  // One after another: each call sets the process's HOME for its own run.
  runners = await checkAll(RUNS_OTHER_CODE);
  noRule = await checkAll(NO_RULE);
  ordinary = await checkAll(ORDINARY.map(([command]) => command));
  // The same commands again, each with the rules it was offered in force.
  runnersWithTheirRules = await checkAll(RUNS_OTHER_CODE, (i) => runners[i]?.suggestedRules ?? []);
}, 60_000);

describe("suggestions from warden permissions check", () => {
  it("offers a program that runs other code its exact command, never a prefix, and that rule stops the question", () => {
    RUNS_OTHER_CODE.forEach((command, i) => {
      const line = runners[i] as Line;
      expect(line.behavior, command).toBe("ask");
      expect(line.suggestedRules?.length, command).toBeGreaterThan(0);
      // The program that runs code is named exactly: no `*` in its rule.
      const forRunner = (line.suggestedRules ?? []).filter((rule) => !rule.startsWith("Bash(npm test"));
      for (const rule of forRunner) expect(rule, command).not.toContain("*");
      expect(runnersWithTheirRules[i]?.behavior, `${command} with ${line.suggestedRules}`).toBe("allow");
    });
    expect(runners[RUNS_OTHER_CODE.indexOf("node build.js")]?.suggestedRules).toEqual(["Bash(node build.js)"]);
    expect(runners[RUNS_OTHER_CODE.indexOf("npm test && node x.js")]?.suggestedRules).toEqual([
      "Bash(npm test:*)",
      "Bash(node x.js)",
    ]);
  });

  it("offers nothing where no exact rule can hold what runs: only a one-time allow", () => {
    const offered = NO_RULE.map((command, i) => ({ command, line: noRule[i] as Line })).filter(
      ({ line }) => line.behavior !== "ask" || (line.suggestedRules ?? ["(missing)"]).length > 0,
    );
    expect(
      offered.map(({ command, line }) => `${command} → ${line.behavior} ${JSON.stringify(line.suggestedRules)}`),
    ).toEqual([]);
  });

  it("never offers the whole Bash tool, in suggestedRules or in the raw suggestions", () => {
    for (const line of [...runners, ...noRule, ...ordinary]) {
      for (const update of line.suggestions ?? []) {
        for (const rule of update.rules ?? []) expect(rule.ruleContent, JSON.stringify(line)).toBeDefined();
      }
      expect(line.suggestedRules ?? []).not.toContain("Bash");
    }
  });

  it("still offers a two-word prefix for ordinary commands", () => {
    ORDINARY.forEach(([command, rules], i) => {
      expect(ordinary[i]?.behavior, command).toBe("ask");
      expect(ordinary[i]?.suggestedRules, command).toEqual(rules);
    });
  });
});
