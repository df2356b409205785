// Hook entry fields Claude Code's plugins use: `if` (a permission-rule condition on the tool call)
// and `asyncRewake` (a background hook whose exit code 2 wakes the model), with real hook scripts.
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hooksSchema } from "../../src/config/settings-schema.js";
import type { HookRewake } from "../../src/hooks/async-rewake.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { hookConditionHolds } from "../../src/permissions/rules/hook-condition.js";

function tempDir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "warden-hook-if-")));
}

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const bash = (command: string) => ({ toolName: "Bash", toolInput: { command } });

describe("hook `if` conditions", () => {
  it("match Bash commands on the simple commands they run, not their text", () => {
    const holds = (condition: string, command: string) => hookConditionHolds(condition, bash(command), "/p");
    expect(holds("Bash(git commit:*)", "git commit -m x")).toBe(true);
    expect(holds("Bash(git commit:*)", "git status")).toBe(false);
    expect(holds("Bash(git push:*)", "ls && git push origin main")).toBe(true);
    expect(holds("Bash(git push:*)", "FOO=bar git push")).toBe(true);
    expect(holds("Bash(git push:*)", "echo $(git push)")).toBe(true);
    expect(holds("Bash(git push:*)", "echo 'git push'")).toBe(false);
    expect(holds("Bash(git *)", "git log")).toBe(true);
    expect(holds("Bash", "anything")).toBe(true);
    expect(holds("Edit(src/**)", "git push")).toBe(false);
  });

  it("match file tools on the call's path, anchored as permission rules are", () => {
    const edit = (file_path: string) => ({ toolName: "Edit", toolInput: { file_path } });
    expect(hookConditionHolds("Edit(src/**)", edit("/p/src/a.ts"), "/p")).toBe(true);
    expect(hookConditionHolds("Edit(src/**)", edit("/p/lib/src/a.ts"), "/p")).toBe(false);
    expect(hookConditionHolds("Edit(*.env)", edit("/p/deep/x.env"), "/p")).toBe(true);
  });

  it("an unreadable condition, or content of a kind not understood, lets the hook run", () => {
    expect(hookConditionHolds("Bash(unclosed", bash("ls"), "/p")).toBe(true);
    expect(hookConditionHolds("WebFetch(domain:example.com)", { toolName: "WebFetch", toolInput: {} }, "/p")).toBe(
      true,
    );
  });

  it("are kept when settings are read, and a hook runs only for the calls they match", async () => {
    const cwd = tempDir();
    const log = join(cwd, "ran.log");
    const hook = script(cwd, "hook.sh", `cat >> '${log}'; echo >> '${log}'`);
    const config = hooksSchema.parse({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook, if: "Bash(git commit:*)" }] }],
    });
    expect(config.PreToolUse?.[0]?.hooks[0]).toMatchObject({ if: "Bash(git commit:*)" });
    const runner = new HookRunner({ config, cwd, sessionId: "s", conditionHolds: hookConditionHolds });
    await runner.preToolUse("Bash", { command: "npm test" }, "t1");
    expect(existsSync(log)).toBe(false);
    await runner.preToolUse("Bash", { command: "git add . && git commit -m wip" }, "t2");
    expect(readFileSync(log, "utf8")).toContain('"tool_use_id":"t2"');
    // Only tool events have a call to test: on Stop a hook with `if` never runs.
    const onStop = new HookRunner({
      config: hooksSchema.parse({ Stop: [{ hooks: [{ type: "command", command: hook, if: "Bash(git *)" }] }] }),
      cwd,
      sessionId: "s",
      conditionHolds: hookConditionHolds,
    });
    const before = readFileSync(log, "utf8");
    await onStop.stop(false);
    expect(readFileSync(log, "utf8")).toBe(before);
  });
});

describe("asyncRewake hooks", () => {
  it("run in the background; exit code 2 wakes the model with the message and stderr", async () => {
    const cwd = tempDir();
    const hook = script(
      cwd,
      "review.sh",
      `cat >/dev/null\necho '{"rewakeSummary":"2 findings"}'\necho 'SQL injection in db.ts:12' >&2\nexit 2`,
    );
    const config = hooksSchema.parse({
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              command: hook,
              if: "Bash(git commit:*)",
              asyncRewake: true,
              rewakeMessage: "Background review of the commit:",
              rewakeSummary: "Commit review found issues",
            },
          ],
        },
      ],
    });
    const runner = new HookRunner({ config, cwd, sessionId: "s", conditionHolds: hookConditionHolds });
    const woken: HookRewake[] = [];
    runner.onRewake((rewake) => woken.push(rewake));
    await runner.postToolUse("Bash", { command: "git status" }, "ok", "t0");
    await runner.backgroundSettled();
    expect(woken).toEqual([]);
    const result = await runner.postToolUse("Bash", { command: "git commit -m x" }, "ok", "t1");
    // The call goes on without it: nothing blocks, nothing waits.
    expect(result).toEqual({ feedback: [], additionalContext: [], errors: [] });
    await runner.backgroundSettled();
    expect(woken).toEqual([
      { message: "Background review of the commit:\n\nSQL injection in db.ts:12", summary: "2 findings" },
    ]);
  });

  it("a hook that exits 0 wakes nobody; the static summary is used when stdout has none", async () => {
    const cwd = tempDir();
    const quiet = script(cwd, "quiet.sh", "cat >/dev/null; exit 0");
    const loud = script(cwd, "loud.sh", "cat >/dev/null; echo found >&2; exit 2");
    const config = hooksSchema.parse({
      Stop: [
        {
          hooks: [
            { type: "command", command: quiet, asyncRewake: true },
            { type: "command", command: loud, asyncRewake: true, rewakeSummary: "Stop review" },
          ],
        },
      ],
    });
    const runner = new HookRunner({ config, cwd, sessionId: "s" });
    const woken: HookRewake[] = [];
    runner.onRewake((rewake) => woken.push(rewake));
    const stop = await runner.stop(false);
    expect(stop.continueWith).toBeUndefined();
    await runner.backgroundSettled();
    expect(woken).toEqual([{ message: "found", summary: "Stop review" }]);
  });
});
