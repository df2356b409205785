// The newer hook events through the built CLI: a `-p` run whose settings name an event Warden does
// not run (warned on stderr and in the init line, naming the file) and a SessionEnd hook, which
// fires with reason "other" when the run ends; `-p --output-format stream-json
// --include-hook-events` reports each command hook's start, output and end, as Claude Code does.
import { chmodSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

describe("hook events in a CLI run", () => {
  it("warns once about an unknown event and runs SessionEnd when -p ends", async () => {
    const cwd = realpathSync(tempDir("warden-hook-events-cli-"));
    const home = tempDir("warden-hook-events-home-");
    const log = join(cwd, "end.log");
    const hook = join(cwd, "end.sh");
    writeFileSync(hook, `#!/usr/bin/env bash\ncat >> '${log}'\n`);
    chmodSync(hook, 0o755);
    const settingsFile = join(cwd, "hook-settings.json");
    const command = { type: "command", command: hook };
    writeFileSync(
      settingsFile,
      JSON.stringify({ hooks: { SessionEnd: [{ hooks: [command] }], OnTeaBreak: [{ hooks: [command] }] } }),
    );
    const script = writeScript(cwd, [{ content: [text("hello")] }]);
    const run = await runCli(
      [
        "-p",
        "hi",
        "--model",
        `replay:${script}`,
        "--cwd",
        cwd,
        "--settings",
        settingsFile,
        "--output-format",
        "stream-json",
        "--verbose",
      ],
      { home },
    );
    expect(run.code).toBe(0);
    const warned = run.stderr.split("\n").filter((line) => line.includes("OnTeaBreak"));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain(settingsFile);
    const init = jsonLines(run.stdout).find((line) => line.subtype === "init");
    expect(init?.warnings).toEqual([expect.stringContaining("hooks.OnTeaBreak")]);
    const ends = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(ends.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ hook_event_name: "SessionEnd", reason: "other", cwd }),
    ]);
  }, 60_000);

  it("reports hook lines in -p stream-json with --include-hook-events", async () => {
    const cwd = realpathSync(tempDir("warden-hook-lines-cli-"));
    const home = tempDir("warden-hook-lines-home-");
    const guard = join(cwd, "guard.sh");
    // A guard as people write them: refuses `rm -rf` with exit 2 and the reason on stderr.
    writeFileSync(guard, `#!/usr/bin/env bash\ngrep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }\nexit 0\n`);
    chmodSync(guard, 0o755);
    const settings = {
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: "echo starting up" }] }],
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }],
      },
    };
    const script = writeScript(cwd, [
      { content: [toolUse("t1", "Bash", { command: "rm -rf build" })] },
      { content: [text("done")] },
    ]);
    const args = ["-p", "clean", "--model", `replay:${script}`, "--cwd", cwd, "--settings", JSON.stringify(settings)];
    const run = await runCli([...args, "--output-format", "stream-json", "--verbose", "--include-hook-events"], {
      home,
    });
    expect(run.code).toBe(0);
    const hookLines = jsonLines(run.stdout).filter((line) => String(line.subtype).startsWith("hook_"));
    const ends = hookLines.filter((line) => line.subtype === "hook_response");
    expect(hookLines.filter((line) => line.subtype === "hook_started").map((line) => line.hook_name)).toEqual([
      "SessionStart:startup",
      "PreToolUse:Bash",
    ]);
    expect(ends).toEqual([
      expect.objectContaining({
        hook_event: "SessionStart",
        stdout: "starting up\n",
        exit_code: 0,
        outcome: "success",
      }),
      expect.objectContaining({ hook_event: "PreToolUse", stderr: "no rm -rf here\n", exit_code: 2, outcome: "error" }),
    ]);

    // Without the flag the stream carries none of them.
    const quiet = await runCli([...args, "--output-format", "stream-json", "--verbose"], { home });
    expect(jsonLines(quiet.stdout).filter((line) => String(line.subtype).startsWith("hook_"))).toEqual([]);
  }, 60_000);

  it("runs SessionStart for a -p run whose prompt is /compact: resume first, then compact", async () => {
    const cwd = realpathSync(tempDir("warden-hook-events-cli-"));
    const home = tempDir("warden-hook-events-home-");
    const log = join(cwd, "start.log");
    const hook = join(cwd, "start.sh");
    writeFileSync(hook, `#!/usr/bin/env bash\ncat >> '${log}'\necho >> '${log}'\n`);
    chmodSync(hook, 0o755);
    const settings = JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: hook }] }] } });
    const first = writeScript(cwd, [{ content: [text("hello")] }], "first.jsonl");
    const opened = await runCli(["-p", "hi", "--model", `replay:${first}`, "--cwd", cwd, "--settings", settings], {
      home,
    });
    expect(opened.code, opened.stderr).toBe(0);
    const summary = writeScript(cwd, [{ content: [text("the summary")] }], "summary.jsonl");
    const compacted = await runCli(
      ["-p", "/compact", "--continue", "--model", `replay:${summary}`, "--cwd", cwd, "--settings", settings],
      { home },
    );
    expect(compacted.code, compacted.stderr).toBe(0);
    const sources = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { source: string }).source);
    expect(sources).toEqual(["startup", "resume", "compact"]);
  }, 60_000);
});
