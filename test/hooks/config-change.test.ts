// ConfigChange: a settings file written while the session runs reaches the hooks with its source
// (the matcher) and path; a file whose content did not change, or a hook for another source, does
// not run; a hook that blocks is reported.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watchSettingsFiles } from "../../src/hooks/config-change.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";

/** Waits until `check` holds (the watcher answers in the background), failing after a generous bound. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("ConfigChange", () => {
  it("runs the hooks of the changed file's source, and reports a block", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-config-change-")));
    mkdirSync(join(cwd, ".claude"));
    const local = join(cwd, ".claude", "settings.local.json");
    writeFileSync(local, "{}\n");
    const log = join(cwd, "changes.jsonl");
    const hook = join(cwd, "change.sh");
    writeFileSync(hook, `#!/usr/bin/env bash\n(cat; echo) >> '${log}'\necho "not without review" >&2\nexit 2\n`);
    chmodSync(hook, 0o755);
    const other = join(cwd, "user-hook-ran");
    const hooks = new HookRunner({
      config: {
        ConfigChange: [
          { matcher: "local_settings", hooks: [{ type: "command", command: hook }] },
          { matcher: "user_settings", hooks: [{ type: "command", command: `touch '${other}'` }] },
        ],
      },
      cwd,
      sessionId: "s-config",
    });
    const warnings: string[] = [];
    const stop = watchSettingsFiles(hooks, [{ source: "localSettings", path: local, root: cwd }], (warning) =>
      warnings.push(warning),
    );
    try {
      writeFileSync(local, '{"permissions": {"allow": ["Bash"]}}\n');
      await until(() => warnings.length > 0);
      const entries = readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries).toEqual([
        expect.objectContaining({ hook_event_name: "ConfigChange", source: "local_settings", file_path: local }),
      ]);
      expect(warnings).toEqual([expect.stringContaining("not without review")]);
      expect(existsSync(other)).toBe(false);
    } finally {
      stop();
    }
  });
});
