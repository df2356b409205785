// FileChanged: the files a FileChanged matcher names (a name, a glob) are watched in the project
// folder, and a real hook script hears of each add, change and removal with the file's path; a
// SessionStart hook's watchPaths add files outside the matchers, a CwdChanged hook's replace them
// and move the matchers to the new folder; what a FileChanged hook writes to CLAUDE_ENV_FILE comes
// back as environment; nothing is heard after the watcher stops.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HooksConfig } from "../../src/config/settings-schema.js";
import { watchChangedFiles } from "../../src/hooks/file-changed.js";
import { fileMatcherAccepts } from "../../src/hooks/file-matcher.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";

/** Waits until `check` holds (the watcher answers in the background), failing after a generous bound. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

function tempDir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "warden-file-changed-")));
}

/** A hook script that appends its stdin as one line to `log` and runs `extra` after. */
function loggingHook(dir: string, name: string, log: string, extra = ""): string {
  const path = join(dir, `${name}.sh`);
  writeFileSync(path, `#!/usr/bin/env bash\n(cat; echo) >> '${log}'\n${extra}\n`);
  chmodSync(path, 0o755);
  return path;
}

function entries(log: string): Array<Record<string, unknown>> {
  return existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];
}

describe("FileChanged matchers", () => {
  it("name files or globs, never regular expressions", () => {
    expect(fileMatcherAccepts(".envrc|.env", ".env")).toBe(true);
    expect(fileMatcherAccepts(".envrc|.env", "xenv")).toBe(false);
    expect(fileMatcherAccepts("*.json", "package.json")).toBe(true);
    expect(fileMatcherAccepts("*.json", "notes.md")).toBe(false);
    expect(fileMatcherAccepts(undefined, "anything")).toBe(true);
  });
});

describe("FileChanged", () => {
  it("tells the hook of each add, change and removal of a named or globbed file, with the env it writes", async () => {
    const cwd = tempDir();
    const log = join(cwd, "changes.jsonl");
    const hook = loggingHook(cwd, "changed", log, `echo 'export SEEN_CHANGE=yes' >> "$CLAUDE_ENV_FILE"`);
    writeFileSync(join(cwd, ".envrc"), "export A=1\n");
    const config: HooksConfig = {
      FileChanged: [{ matcher: ".envrc|*.json", hooks: [{ type: "command", command: hook }] }],
    };
    const hooks = new HookRunner({ config, cwd, sessionId: "s-file-changed" });
    const envs: Array<Record<string, string>> = [];
    const warnings: string[] = [];
    const watcher = watchChangedFiles(hooks, {
      matchers: hooks.matchersOf("FileChanged"),
      cwd,
      onEnv: (env) => envs.push(env),
      onWarning: (w) => warnings.push(w),
    });
    try {
      writeFileSync(join(cwd, ".envrc"), "export A=2\n");
      await until(() => entries(log).length >= 1);
      writeFileSync(join(cwd, "package.json"), "{}\n");
      await until(() => entries(log).length >= 2);
      rmSync(join(cwd, ".envrc"));
      await until(() => entries(log).length >= 3);
      // A file no matcher names is not heard of.
      writeFileSync(join(cwd, "notes.md"), "hello\n");
      writeFileSync(join(cwd, "package.json"), '{"name": "x"}\n');
      await until(() => entries(log).length >= 4);
      await watcher.settled();
      expect(entries(log).map((e) => [e.hook_event_name, e.file_path, e.event])).toEqual([
        ["FileChanged", join(cwd, ".envrc"), "change"],
        ["FileChanged", join(cwd, "package.json"), "add"],
        ["FileChanged", join(cwd, ".envrc"), "unlink"],
        ["FileChanged", join(cwd, "package.json"), "change"],
      ]);
      expect(envs.at(-1)).toEqual({ SEEN_CHANGE: "yes" });
      expect(warnings).toEqual([]);
    } finally {
      watcher.stop();
    }
    // A second session still watching is the clock: once it has heard the write, the stopped one would have.
    const witnessLog = join(cwd, "witness.jsonl");
    const witnessHooks = new HookRunner({
      config: {
        FileChanged: [{ matcher: "*.json", hooks: [{ type: "command", command: loggingHook(cwd, "w", witnessLog) }] }],
      },
      cwd,
      sessionId: "s-witness",
    });
    const witness = watchChangedFiles(witnessHooks, {
      matchers: witnessHooks.matchersOf("FileChanged"),
      cwd,
      onEnv: () => undefined,
      onWarning: () => undefined,
    });
    try {
      writeFileSync(join(cwd, "package.json"), '{"name": "after"}\n');
      await until(() => entries(witnessLog).length >= 1);
      await witness.settled();
    } finally {
      witness.stop();
    }
    expect(entries(witnessLog)).toHaveLength(1);
    expect(entries(log)).toHaveLength(4);
  });

  it("watches the paths SessionStart hooks return, and CwdChanged hooks' paths and folder replace them", async () => {
    const cwd = tempDir();
    const elsewhere = tempDir();
    const sub = join(cwd, "sub");
    mkdirSync(sub);
    const log = join(cwd, "changes.jsonl");
    const watchedOutside = join(elsewhere, "tool-versions");
    writeFileSync(watchedOutside, "node 20\n");
    const start = join(cwd, "start.sh");
    writeFileSync(
      start,
      `#!/usr/bin/env bash\necho '{"hookSpecificOutput":{"hookEventName":"SessionStart","watchPaths":["${watchedOutside}"]}}'\n`,
    );
    chmodSync(start, 0o755);
    const moved = join(cwd, "moved.sh");
    writeFileSync(
      moved,
      `#!/usr/bin/env bash\necho '{"hookSpecificOutput":{"hookEventName":"CwdChanged","watchPaths":[]}}'\n`,
    );
    chmodSync(moved, 0o755);
    const config: HooksConfig = {
      SessionStart: [{ hooks: [{ type: "command", command: start }] }],
      CwdChanged: [{ hooks: [{ type: "command", command: moved }] }],
      FileChanged: [
        { matcher: ".env", hooks: [{ type: "command", command: loggingHook(cwd, "changed", log) }] },
        { hooks: [{ type: "command", command: loggingHook(cwd, "any", join(cwd, "any.jsonl")) }] },
      ],
    };
    const hooks = new HookRunner({ config, cwd, sessionId: "s-watch-paths" });
    const watcher = watchChangedFiles(hooks, {
      matchers: hooks.matchersOf("FileChanged"),
      cwd,
      onEnv: () => undefined,
      onWarning: () => undefined,
    });
    try {
      expect(watcher.watched()).toEqual([join(cwd, ".env")]);
      await hooks.sessionStart("startup");
      expect(watcher.watched().sort()).toEqual([join(cwd, ".env"), watchedOutside].sort());
      writeFileSync(watchedOutside, "node 22\n");
      await until(() => entries(join(cwd, "any.jsonl")).length >= 1);
      // The `.env` hook's matcher does not name tool-versions: only the hook without a matcher ran.
      expect(entries(join(cwd, "any.jsonl"))).toEqual([
        expect.objectContaining({ hook_event_name: "FileChanged", file_path: watchedOutside, event: "change" }),
      ]);
      expect(entries(log)).toEqual([]);

      await hooks.cwdChanged(cwd, sub);
      expect(watcher.watched()).toEqual([join(sub, ".env")]);
      writeFileSync(join(sub, ".env"), "X=1\n");
      await until(() => entries(log).length >= 1);
      await watcher.settled();
      expect(entries(log)).toEqual([
        expect.objectContaining({ hook_event_name: "FileChanged", file_path: join(sub, ".env"), event: "add" }),
      ]);
    } finally {
      watcher.stop();
    }
  });
});
