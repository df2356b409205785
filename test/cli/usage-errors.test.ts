// A run that cannot start, through the built CLI: one convention for every such failure (Claude
// Code's). A short message and one line pointing to --help, never the whole help; exit 2 for bad
// usage (a flag, a value, a --settings value), 1 for a set-up that fails (a settings file that
// cannot be read); and a run that asked for json or stream-json gets an error result line.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usageText } from "../../src/cli/flags/session-flag-table.js";
import { INTERNAL_SUBCOMMANDS, SUBCOMMANDS } from "../../src/cli/subcommands.js";
import { tempDir, text, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

function workspace() {
  const home = tempDir("warden-usage-home-");
  const cwd = tempDir("warden-usage-project-");
  const script = writeScript(cwd, [{ content: [text("never asked")] }]);
  return { home, cwd, script };
}

const usageCases: Array<{ name: string; args: (ws: ReturnType<typeof workspace>) => string[]; says: string }> = [
  { name: "an unknown flag", args: () => ["--frobnicate"], says: "unknown option --frobnicate" },
  { name: "a bad value", args: () => ["--max-turns", "0"], says: "--max-turns must be a whole number >= 1" },
  { name: "a missing value", args: () => ["--model"], says: "--model needs a value" },
  {
    name: "a --settings value that is not JSON",
    args: (ws) => ["--settings", "{not json", "--model", `replay:${ws.script}`],
    says: "--settings:1: invalid JSON",
  },
  {
    // Skipped, the session would run without the restriction asked for.
    name: "a --disallowedTools rule that cannot be read",
    args: (ws) => ["--disallowedTools", "Bash(rm", "--model", `replay:${ws.script}`],
    says: '--disallowedTools: malformed deny rule: "Bash(rm" must end with ")"',
  },
  {
    name: "a model that cannot be used",
    args: () => ["--model", "replay:/no/such/script.jsonl"],
    says: "no such file",
  },
];

describe("a run that cannot start", () => {
  for (const { name, args, says } of usageCases) {
    it(`${name}: a short usage error, exit 2, and an error result for json and stream-json`, async () => {
      const ws = workspace();
      const text = await runCli(["-p", "x", "--cwd", ws.cwd, ...args(ws)], { home: ws.home });
      expect(text.code).toBe(2);
      expect(text.stderr).toContain(says);
      expect(text.stderr).toContain("Run 'warden --help' for the options.");
      expect(text.stderr).not.toContain("Usage: warden");
      expect(text.stderr.trim().split("\n").length).toBeLessThanOrEqual(3);
      expect(text.stdout).toBe("");

      for (const format of ["json", "stream-json"]) {
        const run = await runCli(["-p", "x", "--cwd", ws.cwd, "--output-format", format, ...args(ws)], {
          home: ws.home,
        });
        expect(run.code, format).toBe(2);
        const lines = jsonLines(run.stdout);
        expect(lines, format).toHaveLength(1);
        expect(lines[0]).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true });
        expect(String((lines[0]?.errors as string[] | undefined)?.[0])).toContain(says);
      }
    });
  }

  it("no prompt because --allowedTools took the last word: the message says so", async () => {
    const ws = workspace();
    const base = ["-p", "--cwd", ws.cwd, "--model", `replay:${ws.script}`];
    const took = await runCli([...base, "--allowedTools", "Read", "Bash(npm test:*)", "fix the tests"], {
      home: ws.home,
      input: "",
    });
    expect(took.code).toBe(2);
    expect(took.stderr).toContain(
      'no prompt: pass it after -p ("warden -p \\"...\\"") or on stdin (--allowedTools took every word after it, "fix the tests" too: put the prompt before it, or after --)',
    );
    // The same list given the prompt after `--` runs; a prompt on stdin is no mistake either.
    const after = await runCli([...base, "--allowedTools", "Read", "--", "fix the tests"], { home: ws.home });
    expect(after.code, after.stderr).toBe(0);
    const piped = await runCli([...base, "--allowedTools", "Read"], { home: ws.home, input: "fix the tests" });
    expect(piped.code, piped.stderr).toBe(0);
  });

  it("a settings file that cannot be read: exit 1 (not usage), no help hint, and still a JSON result", async () => {
    const ws = workspace();
    mkdirSync(join(ws.cwd, ".claude"));
    writeFileSync(join(ws.cwd, ".claude", "settings.json"), "{not json");
    const run = await runCli(
      ["-p", "x", "--cwd", ws.cwd, "--model", `replay:${ws.script}`, "--output-format", "json"],
      {
        home: ws.home,
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("settings.json:1: invalid JSON");
    expect(run.stderr).not.toContain("--help");
    const [result] = jsonLines(run.stdout);
    expect(result).toMatchObject({ type: "result", is_error: true, error_kind: "setup" });
    expect(String(result?.error)).toContain("settings.json:1: invalid JSON");
  });

  it("bypass mode that the settings disable: exit 1 and still a JSON result", async () => {
    const ws = workspace();
    mkdirSync(join(ws.cwd, ".claude"));
    writeFileSync(
      join(ws.cwd, ".claude", "settings.json"),
      JSON.stringify({ permissions: { disableBypassPermissionsMode: "disable" } }),
    );
    const run = await runCli(
      [
        "-p",
        "x",
        "--cwd",
        ws.cwd,
        "--model",
        `replay:${ws.script}`,
        "--dangerously-skip-permissions",
        "--output-format",
        "json",
      ],
      { home: ws.home },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bypassPermissions mode is disabled by");
    const [result] = jsonLines(run.stdout);
    expect(result).toMatchObject({ type: "result", is_error: true, error_kind: "setup" });
    expect(String(result?.error)).toContain("disableBypassPermissionsMode");
  });

  it("keeps the session id asked for in the error result", async () => {
    const ws = workspace();
    const id = "5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";
    const run = await runCli(["-p", "x", "--session-id", id, "--frobnicate", "--output-format=json"], {
      home: ws.home,
    });
    expect(run.code).toBe(2);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ session_id: id, error_kind: "usage" });
  });

  it("the Agent SDK's stream-json session that cannot be built writes its error result and exits 2", async () => {
    const ws = workspace();
    const run = await runCli(
      [
        "-p",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--cwd",
        ws.cwd,
        "--model",
        "replay:/no/such/script.jsonl",
      ],
      {
        home: ws.home,
        input: `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" }, parent_tool_use_id: null })}\n`,
      },
    );
    expect(run.code).toBe(2);
    const result = jsonLines(run.stdout).find((line) => line.type === "result");
    expect(result).toMatchObject({ subtype: "error_during_execution", is_error: true });
    expect(String(result?.error)).toContain("no such file");
  });
});

describe("warden --help", () => {
  it("names every subcommand a person runs, and none that Warden starts itself", () => {
    const line = usageText()
      .split("\n")
      .find((l) => l.includes("permissions |"));
    const named = (line ?? "")
      .replace(/^\s*warden\s+/, "")
      .split("...")[0]
      ?.split("|")
      .map((name) => name.trim());
    const personal = Object.keys(SUBCOMMANDS).filter((name) => !INTERNAL_SUBCOMMANDS.has(name));
    expect(named?.sort()).toEqual(personal.sort());
  });

  it("each subcommand's --help is the usage on stdout, exit 0, nothing on stderr", async () => {
    const home = tempDir("warden-subcommand-help-");
    for (const name of Object.keys(SUBCOMMANDS).filter((n) => !INTERNAL_SUBCOMMANDS.has(n))) {
      const run = await runCli([name, "--help"], { home });
      expect(run.code, name).toBe(0);
      expect(run.stderr, name).toBe("");
      expect(run.stdout.toLowerCase(), name).toContain("usage");
    }
  });
});
