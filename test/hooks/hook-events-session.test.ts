// SessionStart's CLAUDE_ENV_FILE, PermissionRequest and StopFailure, each through the real loop
// with a replay script, the real permission engine and real hook scripts.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSessionStartHooks, submitWithHooks } from "../../src/loop/session-hooks.js";
import { type AskHandler, createCanUseTool } from "../../src/permissions/engine/index.js";
import type { CanUseTool } from "../../src/tool/types.js";
import { hookedSession as session, text, toolUse } from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-hook-session-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

const tempDir = () => realpathSync(mkdtempSync(join(tmpdir(), "warden-hook-session-")));

/** A hook script with this body; its stdin is saved to `<name>.json`. */
function hookScript(dir: string, name: string, body: string) {
  const path = join(dir, `${name}.sh`);
  writeFileSync(path, `#!/usr/bin/env bash\ncat > '${join(dir, `${name}.json`)}'\n${body}\n`);
  chmodSync(path, 0o755);
  return {
    command: { type: "command" as const, command: path },
    input: () => JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Record<string, unknown>,
  };
}

async function run(s: ReturnType<typeof session>, prompt: string, warnings: string[] = []): Promise<string> {
  for await (const _ of submitWithHooks(s.session, prompt, s.hooks, (w) => warnings.push(w)));
  return JSON.stringify(s.session.messages);
}

const allowAll: CanUseTool = async () => ({ behavior: "allow" });

describe("SessionStart's CLAUDE_ENV_FILE", () => {
  it("variables a hook exports there reach the session's Bash commands", async () => {
    const cwd = tempDir();
    const start = hookScript(
      cwd,
      "start",
      `echo 'export GREETING="hello from the hook"' >> "$CLAUDE_ENV_FILE"\necho "project is ready"`,
    );
    const s = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: 'echo "[$GREETING]"' })] }, { content: [text("ok")] }],
      { SessionStart: [{ matcher: "startup", hooks: [start.command] }] },
      allowAll,
    );
    const warnings: string[] = [];
    await runSessionStartHooks(s.session, s.hooks, "startup", (w) => warnings.push(w));
    expect(warnings).toEqual([]);
    expect(start.input()).toMatchObject({ hook_event_name: "SessionStart", source: "startup" });
    const messages = await run(s, "greet");
    expect(messages).toContain("[hello from the hook]");
    expect(messages).toContain("project is ready");
  });

  it("a hook whose matcher names another source does not run", async () => {
    const cwd = tempDir();
    const start = hookScript(cwd, "start", "true");
    const s = session(cwd, [], { SessionStart: [{ matcher: "resume", hooks: [start.command] }] }, allowAll);
    await runSessionStartHooks(s.session, s.hooks, "startup", () => {});
    expect(existsSync(join(cwd, "start.json"))).toBe(false);
  });
});

describe("PermissionRequest", () => {
  function counting(): { handler: AskHandler; asked: string[] } {
    const asked: string[] = [];
    return {
      asked,
      handler: async (request) => {
        asked.push(request.tool.name);
        return { behavior: "deny", message: "the person said no" };
      },
    };
  }

  it("a hook's allow answers for the person", async () => {
    const cwd = tempDir();
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });
    const hook = hookScript(cwd, "perm", `printf '%s\\n' '${allow}'`);
    const ask = counting();
    const s = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "touch made.txt" })] }, { content: [text("ok")] }],
      { PermissionRequest: [{ matcher: "Bash", hooks: [hook.command] }] },
      createCanUseTool({ askHandler: ask.handler }),
    );
    await run(s, "make it");
    expect(ask.asked).toEqual([]);
    expect(existsSync(join(cwd, "made.txt"))).toBe(true);
    expect(hook.input()).toMatchObject({
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: { command: "touch made.txt" },
    });
  });

  it("a hook's deny refuses with its message, and nobody is asked", async () => {
    const cwd = tempDir();
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "no touching" },
      },
    });
    const hook = hookScript(cwd, "perm", `printf '%s\\n' '${deny}'`);
    const ask = counting();
    const s = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "touch made.txt" })] }, { content: [text("ok")] }],
      { PermissionRequest: [{ hooks: [hook.command] }] },
      createCanUseTool({ askHandler: ask.handler }),
    );
    const messages = await run(s, "make it");
    expect(ask.asked).toEqual([]);
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    expect(messages).toContain("no touching");
  });

  it("a hook's deny with interrupt keeps its message as the result and ends the turn", async () => {
    const cwd = tempDir();
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "frozen: no changes today", interrupt: true },
      },
    });
    const hook = hookScript(cwd, "perm", `printf '%s\\n' '${deny}'`);
    const ask = counting();
    const s = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "touch made.txt" })] }, { content: [text("went on")] }],
      { PermissionRequest: [{ hooks: [hook.command] }] },
      createCanUseTool({ askHandler: ask.handler }),
    );
    const messages = await run(s, "make it");
    expect(ask.asked).toEqual([]);
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    expect(messages).toContain("frozen: no changes today");
    // The model is not asked again within the turn.
    expect(messages).not.toContain("went on");
  });

  it("an allow does not pass a safety check: a protected path still goes to the person", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, ".git", "hooks"), { recursive: true });
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });
    const hook = hookScript(cwd, "perm", `printf '%s\\n' '${allow}'`);
    const ask = counting();
    const s = session(
      cwd,
      [
        { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/.git/hooks/pre-commit", content: "#!/bin/sh\n" })] },
        { content: [text("ok")] },
      ],
      { PermissionRequest: [{ hooks: [hook.command] }] },
      createCanUseTool({ askHandler: ask.handler }),
    );
    await run(s, "add a git hook");
    expect(ask.asked).toEqual(["Write"]);
    expect(existsSync(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
  });
});

describe("StopFailure", () => {
  it("runs when a turn ends on a model error, matched by the kind of error", async () => {
    const cwd = tempDir();
    const failure = hookScript(cwd, "failure", "true");
    const stop = hookScript(cwd, "stop", "true");
    const s = session(
      cwd,
      [{ content: [], error: { message: "invalid x-api-key", status: 401 } }],
      {
        StopFailure: [{ matcher: "authentication_failed", hooks: [failure.command] }],
        Stop: [{ hooks: [stop.command] }],
      },
      allowAll,
    );
    await run(s, "hello");
    expect(failure.input()).toMatchObject({
      hook_event_name: "StopFailure",
      error: "authentication_failed",
      error_details: expect.stringContaining("invalid x-api-key"),
    });
    // A failed turn is StopFailure's, not Stop's.
    expect(existsSync(join(cwd, "stop.json"))).toBe(false);
  });
});

describe("CwdChanged", () => {
  it("runs when a command moves the shell, and what it exports reaches later commands", async () => {
    const cwd = tempDir();
    const moved = hookScript(cwd, "moved", `echo 'export WHERE="moved in"' >> "$CLAUDE_ENV_FILE"`);
    const s = session(
      cwd,
      [
        { content: [toolUse("b1", "Bash", { command: "mkdir -p sub && cd sub" })] },
        { content: [toolUse("b2", "Bash", { command: 'echo "[$WHERE]"' })] },
        { content: [text("ok")] },
      ],
      { CwdChanged: [{ hooks: [moved.command] }] },
      allowAll,
    );
    const messages = await run(s, "go");
    expect(moved.input()).toMatchObject({ hook_event_name: "CwdChanged", old_cwd: cwd, new_cwd: join(cwd, "sub") });
    expect(messages).toContain("[moved in]");
  });
});
