// The newer hook events through the built CLI: a `-p` run whose settings name an event Warden does
// not run (warned on stderr and in the init line, naming the file) and a SessionEnd hook, which
// fires with reason "other" when the run ends.
import { chmodSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, writeScript } from "../loop/helpers.js";
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
});
