// `warden permissions check` and `list`, called in process on the command's own entry (the code
// path the binary runs; check-cli.test.ts runs the binary itself): flags, --jsonl streams, settings
// of --cwd in force, clear errors, and never a tool run.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { permissionsInProcess, checkProject as project } from "./check-in-process.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The command in process, from the repository's folder as the binary is run in check-cli.test.ts. */
const wardenInProcess = (args: string[], home: string, input?: string) =>
  permissionsInProcess(args, { home, cwd: root, input });

describe("warden permissions check", () => {
  it("takes flags: --allowedTools, --disallowedTools, --permission-mode", async () => {
    const { home, cwd } = project();
    const write = JSON.stringify({ file_path: join(cwd, "docs", "a.md"), content: "x" });
    const ask = await wardenInProcess(["check", "Write", write, "--cwd", cwd], home);
    expect(JSON.parse(ask.stdout)).toMatchObject({ behavior: "ask" });
    const allowed = await wardenInProcess(
      ["check", "Write", write, "--cwd", cwd, "--permission-mode", "acceptEdits"],
      home,
    );
    expect(JSON.parse(allowed.stdout)).toMatchObject({ behavior: "allow", source: "mode" });
    const denied = await wardenInProcess(
      ["check", "Write", write, "--cwd", cwd, "--allowedTools", "Write", "--disallowedTools", "Edit(./docs/**)"],
      home,
    );
    expect(JSON.parse(denied.stdout)).toMatchObject({ behavior: "deny", rule: "Edit(./docs/**)", source: "cliArg" });
  });

  it("takes --flag=value spellings too, and refuses a value on a switch", async () => {
    const { home, cwd } = project();
    const write = JSON.stringify({ file_path: join(cwd, "docs", "a.md"), content: "x" });
    const allowed = await wardenInProcess(
      ["check", "Write", write, `--cwd=${cwd}`, "--permission-mode=acceptEdits"],
      home,
    );
    expect(JSON.parse(allowed.stdout)).toMatchObject({ behavior: "allow", source: "mode" });
    const denied = await wardenInProcess(
      ["check", "Write", write, `--cwd=${cwd}`, "--allowedTools=Write", "--disallowedTools=Edit(./docs/**)"],
      home,
    );
    expect(JSON.parse(denied.stdout)).toMatchObject({ behavior: "deny", rule: "Edit(./docs/**)", source: "cliArg" });
    const bad = await wardenInProcess(["check", "Write", write, `--cwd=${cwd}`, "--json=yes"], home);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--json takes no value");
  });

  it("reads --jsonl requests, adds their rules as session rules, and answers each in order", async () => {
    const { home, cwd } = project();
    const marker = join(cwd, "ran-marker");
    const requests = [
      { tool: "Write", input: { file_path: join(cwd, "src", "x.ts"), content: "x" } },
      { tool: "Write", input: { file_path: join(cwd, "src", "x.ts"), content: "x" }, rules: { deny: ["Write"] } },
      { tool: "Write", input: { file_path: join(cwd, "other.ts"), content: "x" }, mode: "dontAsk" },
      { tool: "Write", input: { file_path: join(cwd, ".git", "config"), content: "x" }, mode: "bypassPermissions" },
      { command: `touch ${marker}`, rules: { allow: [], deny: ["Bash(touch:*)"] }, mode: "default" },
      { tool: "Nope", input: {} },
      { tool: "Bash", input: { command: `touch ${marker}` }, rules: { allow: ["Bash"] } },
    ];
    const input = `${requests.map((r) => JSON.stringify(r)).join("\n")}\nnot json\n`;
    const run = await wardenInProcess(["check", "--jsonl", "--cwd", cwd, "--trust-project"], home, input);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.behavior ?? "error")).toEqual([
      "allow",
      "deny",
      "deny",
      "ask",
      "deny",
      "error",
      "allow",
      "error",
    ]);
    expect(lines[1]).toMatchObject({ rule: "Write", source: "session" });
    expect(lines[3]).toMatchObject({ source: "safetyCheck" });
    expect(lines[4]).toMatchObject({ rule: "Bash(touch:*)" });
    expect(lines[5].error).toContain('line 6: unknown tool "Nope"');
    expect(lines[7].error).toContain("line 8:");
    expect(run.code).toBe(1);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses to decide under settings whose deny rules cannot be read", async () => {
    const { home, cwd } = project();
    writeFileSync(join(cwd, ".warden", "settings.local.json"), '{"permissions": {"deny": [}');
    const run = await wardenInProcess(
      ["check", "Read", JSON.stringify({ file_path: join(cwd, "a") }), "--cwd", cwd],
      home,
    );
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(join(cwd, ".warden", "settings.local.json"));
  });

  it("reports malformed rules on stderr with file and line, and still decides", async () => {
    const { home, cwd } = project();
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "settings.json"), '{\n  "permissions": {\n    "allow": ["Read(oops"]\n  }\n}\n');
    const run = await wardenInProcess(
      ["check", "Read", JSON.stringify({ file_path: join(cwd, "a") }), "--cwd", cwd, "--trust-project"],
      home,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${join(cwd, ".claude", "settings.json")}:3: malformed allow rule skipped`);
    expect(JSON.parse(run.stdout)).toMatchObject({ behavior: "allow" });
  });

  it("lists the rules in force with their sources, files and lines", async () => {
    const { home, cwd } = project();
    const run = await wardenInProcess(
      ["list", "--cwd", cwd, "--trust-project", "--disallowedTools", "Bash", "--json"],
      home,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      mode: "default",
      workingDirectories: [cwd],
      managedRulesOnly: false,
      rules: {
        deny: [
          { rule: "Bash", source: "cliArg" },
          {
            rule: "Read(./secret/**)",
            source: "projectSettings",
            file: join(cwd, ".warden", "settings.json"),
            line: 4,
          },
        ],
        ask: [],
        allow: [
          { rule: "Edit(./src/**)", source: "projectSettings", file: join(cwd, ".warden", "settings.json"), line: 7 },
        ],
      },
    });
    const text = await wardenInProcess(["list", "--cwd", cwd, "--trust-project"], home);
    expect(text.stdout).toContain("deny (1):\n  Read(./secret/**)  projectSettings");
  });

  it("explains bad usage, bad input and unknown tools", async () => {
    const { home, cwd } = project();
    expect((await wardenInProcess(["check", "Read"], home)).stderr).toContain("expected TOOL and 'JSON_INPUT'");
    expect((await wardenInProcess(["check", "Read", "{nope", "--cwd", cwd], home)).stderr).toContain("not valid JSON");
    const bad = await wardenInProcess(["check", "Read", '{"file_path": 3}', "--cwd", cwd], home);
    expect(bad.stderr).toContain("file_path");
    expect(bad.code).toBe(2);
    expect((await wardenInProcess(["check", "Teleport", "{}", "--cwd", cwd], home)).stderr).toContain(
      'unknown tool "Teleport"',
    );
  });

  it("answers --help after a subcommand with the usage and exit 0", async () => {
    const { home } = project();
    for (const args of [
      ["check", "--help"],
      ["list", "-h"],
    ]) {
      const run = await wardenInProcess(args, home);
      expect(run.code, args.join(" ")).toBe(0);
      expect(run.stdout).toContain("Usage: warden permissions check TOOL");
      expect(run.stderr).toBe("");
    }
    expect((await wardenInProcess(["list", "extra"], home)).stderr).toContain(
      "warden permissions list: list takes only options",
    );
  });
});
