// Hooks with real scripts in temp dirs: every outcome of PreToolUse (exit 2, JSON allow / deny /
// ask, rewritten input, added context, timeout, crash), PostToolUse, UserPromptSubmit, Stop and
// SessionStart, run through the real tool-call path and session engine.
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { HookMatcherConfig, HooksConfig } from "../../src/config/settings-schema.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { createSession } from "../../src/loop/session.js";
import { PromptBlockedError, runSessionStartHooks, submitWithHooks } from "../../src/loop/session-hooks.js";
import { runToolUse } from "../../src/orchestration/run-tool-use.js";
import { type AskRequest, createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import { rulesFromStrings } from "../../src/permissions/rules/index.js";
import { loadSessionPermissions } from "../../src/permissions/settings/index.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import type { ToolPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool } from "../../src/tool/types.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-hooks-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

function tempDir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "warden-hooks-")));
}

/** Writes an executable bash hook script and returns the command that runs it. */
function hookScript(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function command(cmd: string, timeout?: number): HookMatcherConfig["hooks"][number] {
  return timeout === undefined ? { type: "command", command: cmd } : { type: "command", command: cmd, timeout };
}

/** A tool that records what it was called with; its own check has no opinion (passthrough). */
function noteTool(name = "Note") {
  const calls: unknown[] = [];
  const tool = buildTool({
    name,
    inputSchema: z.object({ text: z.string() }),
    prompt: async () => "Notes text.",
    call: async (input) => {
      calls.push(input);
      return { data: `noted: ${input.text}` };
    },
  });
  return Object.assign(tool, { calls });
}

function setup(config: HooksConfig, rules: { allow?: string[]; deny?: string[] } = {}) {
  const cwd = tempDir();
  const permissionContext: ToolPermissionContext = {
    mode: "default",
    workingDirectories: [cwd],
    rules: rulesFromStrings(rules, "session", cwd, "test").rules,
    isBypassPermissionsModeAvailable: false,
  };
  const hooks = new HookRunner({ config, cwd, sessionId: "s-1" });
  const tool = noteTool();
  const context = createToolUseContext({
    options: {
      tools: [tool as AnyTool],
      model: "test",
      cwd,
      sessionId: "s-1",
      sessionDir: cwd,
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: permissionContext, hooks },
  });
  const asked: AskRequest[] = [];
  const headless = createHeadlessAskHandler();
  const canUseTool = createCanUseTool({
    askHandler: async (request) => {
      asked.push(request);
      return headless(request);
    },
  });
  const run = (input: object = { text: "hi" }) =>
    runToolUse(
      { type: "tool_use", id: "toolu_1", name: tool.name, input: input as Record<string, unknown> },
      context,
      canUseTool,
      undefined,
    );
  return { cwd, tool, context, run, asked, hooks };
}

const pre = (cmd: string, matcher?: string, timeout?: number): HooksConfig => ({
  PreToolUse: [{ matcher, hooks: [command(cmd, timeout)] }],
});

describe("PreToolUse", () => {
  it("exit code 2 blocks the call with stderr as the reason", async () => {
    const dir = tempDir();
    const { run, tool } = setup(pre(hookScript(dir, "block.sh", 'echo "no notes on Sundays" >&2; exit 2')));
    const outcome = await run();
    expect(outcome.result).toMatchObject({ is_error: true, content: expect.stringContaining("no notes on Sundays") });
    expect(outcome.denial?.reason).toMatchObject({ type: "hook" });
    expect(tool.calls).toEqual([]);
  });

  it("records each event's outcomes for the transcript, tied to the call", async () => {
    const dir = tempDir();
    const { run, hooks } = setup(pre(hookScript(dir, "block.sh", 'echo "no notes on Sundays" >&2; exit 2')));
    const recorded: Record<string, unknown>[] = [];
    hooks.bindSession({ sessionId: "s-1", recordEntry: (entry) => recorded.push(entry) });
    await run();
    expect(recorded).toEqual([
      {
        type: "hook_outcome",
        hookEvent: "PreToolUse",
        toolName: "Note",
        toolUseId: "toolu_1",
        outcomes: [{ hook: expect.stringContaining("block.sh"), kind: "blocking", said: "no notes on Sundays" }],
      },
    ]);
  });

  it("receives the call as JSON on stdin", async () => {
    const dir = tempDir();
    const seen = join(dir, "stdin.json");
    const { run, cwd } = setup(pre(hookScript(dir, "see.sh", `cat > ${seen}`)), { allow: ["Note"] });
    await run({ text: "payload" });
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Note",
      tool_input: { text: "payload" },
      tool_use_id: "toolu_1",
      session_id: "s-1",
      cwd,
    });
  });

  it("JSON deny refuses, with the hook's reason", async () => {
    const dir = tempDir();
    const json = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "policy says no",
      },
    });
    const { run, tool } = setup(pre(hookScript(dir, "deny.sh", `echo '${json}'`)), { allow: ["Note"] });
    const outcome = await run();
    expect(outcome.result.content).toContain("policy says no");
    expect(tool.calls).toEqual([]);
  });

  it("JSON defer refuses the call: Warden cannot wait for a later answer, so it never runs unchecked", async () => {
    const dir = tempDir();
    const json = JSON.stringify({
      hookSpecificOutput: { permissionDecision: "defer", permissionDecisionReason: "a reviewer decides" },
    });
    const { run, tool } = setup(pre(hookScript(dir, "defer.sh", `echo '${json}'`)), { allow: ["Note"] });
    const outcome = await run();
    expect(outcome.result.content).toContain("deferred the call, which Warden cannot wait for: a reviewer decides");
    expect(tool.calls).toEqual([]);
  });

  it("JSON allow skips the prompt (nobody could answer it here)", async () => {
    const dir = tempDir();
    const json = JSON.stringify({
      hookSpecificOutput: { permissionDecision: "allow", permissionDecisionReason: "vetted" },
    });
    const { run, tool, asked } = setup(pre(hookScript(dir, "allow.sh", `echo '${json}'`)));
    const outcome = await run();
    expect(outcome.result.is_error).toBeFalsy();
    expect(tool.calls).toHaveLength(1);
    expect(asked).toHaveLength(0);
  });

  it("JSON allow does not pass a deny rule", async () => {
    const dir = tempDir();
    const json = JSON.stringify({ hookSpecificOutput: { permissionDecision: "allow" } });
    const { run, tool } = setup(pre(hookScript(dir, "allow.sh", `echo '${json}'`)), { deny: ["Note"] });
    const outcome = await run();
    expect(outcome.result.content).toContain("denied by Note (deny rule");
    expect(tool.calls).toEqual([]);
  });

  it("JSON ask sends the call to the ask handler even when a rule allows it", async () => {
    const dir = tempDir();
    const json = JSON.stringify({
      hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "double-check" },
    });
    const { run, tool, asked } = setup(pre(hookScript(dir, "ask.sh", `echo '${json}'`)), { allow: ["Note"] });
    await run();
    expect(asked[0]?.ask.message).toContain("double-check");
    expect(tool.calls).toEqual([]);
  });

  it("names only the hook that asked, not a guard beside it that said nothing, and its reason once", async () => {
    const dir = tempDir();
    const json = JSON.stringify({
      hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "double-check" },
    });
    const guard = hookScript(dir, "guard.sh", "exit 0");
    const asker = hookScript(dir, "ask.sh", `echo '${json}'`);
    const { run, asked } = setup({ PreToolUse: [{ hooks: [command(guard), command(asker)] }] });
    const outcome = await run();
    expect(asked[0]?.ask.decisionReason).toEqual({ type: "hook", hookName: asker, reason: "double-check" });
    // Said once, with the hook that said it (the headless answer; the UI's dialog words it alike).
    const said = String(outcome.result.content);
    expect(said).toContain(`double-check. (hook ${asker})`);
    expect(said.split("double-check")).toHaveLength(2);
  });

  it("rewrites the input; a rewrite that breaks the schema is refused", async () => {
    const dir = tempDir();
    const good = JSON.stringify({
      hookSpecificOutput: { permissionDecision: "allow", updatedInput: { text: "REDACTED" } },
    });
    const first = setup(pre(hookScript(dir, "rewrite.sh", `echo '${good}'`)));
    await first.run({ text: "secret token" });
    expect(first.tool.calls).toEqual([{ text: "REDACTED" }]);

    const bad = JSON.stringify({ hookSpecificOutput: { updatedInput: { text: 42 } } });
    const second = setup(pre(hookScript(dir, "bad-rewrite.sh", `echo '${bad}'`)), { allow: ["Note"] });
    const outcome = await second.run();
    expect(outcome.result.content).toContain("rewrote the input badly");
    expect(second.tool.calls).toEqual([]);
  });

  it("adds context for the model's next request", async () => {
    const dir = tempDir();
    const json = JSON.stringify({ hookSpecificOutput: { additionalContext: "the notes folder is read by the CI" } });
    const { run, context } = setup(pre(hookScript(dir, "ctx.sh", `echo '${json}'`)), { allow: ["Note"] });
    await run();
    expect(context.channels.reminders.peek()).toEqual([expect.stringContaining("the notes folder is read by the CI")]);
  });

  it("runs only hooks whose matcher names the tool", async () => {
    const dir = tempDir();
    const marker = join(dir, "ran");
    const { run } = setup(pre(hookScript(dir, "mark.sh", `touch ${marker}`), "Write|Edit"), { allow: ["Note"] });
    await run();
    expect(existsSync(marker)).toBe(false);
    const again = setup(pre(hookScript(dir, "mark.sh", `touch ${marker}`), "No.*"), { allow: ["Note"] });
    await again.run();
    expect(existsSync(marker)).toBe(true);
  });

  it("a hook that hangs is killed at its timeout, children included, and the call is refused", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "child.pid");
    const script = hookScript(dir, "hang.sh", `sleep 60 & echo $! > ${pidFile}; wait`);
    const { run, tool } = setup(pre(script, undefined, 2), { allow: ["Note"] });
    const outcome = await run();
    expect(outcome.result.content).toContain("did not finish within 2 s");
    expect(outcome.result.content).toContain("could not check it");
    expect(tool.calls).toEqual([]);
    const childPid = Number(readFileSync(pidFile, "utf8"));
    // SIGKILL to the group is immediate, but a loaded machine may take a moment to reap the child.
    const alive = () => {
      try {
        process.kill(childPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; alive() && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it("a hook that leaves a background process behind has answered when it exits", async () => {
    const dir = tempDir();
    const json = JSON.stringify({ hookSpecificOutput: { permissionDecision: "allow" } });
    const { run, tool } = setup(pre(hookScript(dir, "bg.sh", `sleep 20 &\necho '${json}'`), undefined, 10));
    // Waiting for the background sleep (20 s) would hit the 10 s timeout and refuse the call.
    const outcome = await run();
    expect(outcome.result.is_error).toBeFalsy();
    expect(tool.calls).toHaveLength(1);
  });

  it("a hook that crashes or prints broken JSON fails closed", async () => {
    const dir = tempDir();
    const crashed = setup(pre(hookScript(dir, "crash.sh", 'echo "segfault-ish" >&2; exit 1')), { allow: ["Note"] });
    const outcome = await crashed.run();
    expect(outcome.result.content).toMatch(/failed with exit code 1: segfault-ish/);
    expect(crashed.tool.calls).toEqual([]);

    const garbled = setup(pre(hookScript(dir, "garbled.sh", "echo '{not json'")), { allow: ["Note"] });
    expect((await garbled.run()).result.content).toContain("printed invalid JSON");
    expect(garbled.tool.calls).toEqual([]);

    const missing = setup(pre(join(dir, "does-not-exist.sh")), { allow: ["Note"] });
    expect((await missing.run()).result.content).toContain("failed with exit code 127");
  });
});

describe("PostToolUse", () => {
  it("feeds exit-2 stderr back to the model with the result, and adds context", async () => {
    const dir = tempDir();
    const ctx = JSON.stringify({ hookSpecificOutput: { additionalContext: "lint ran" } });
    const config: HooksConfig = {
      PostToolUse: [
        { matcher: "Note", hooks: [command(hookScript(dir, "lint.sh", 'echo "line 3 is too long" >&2; exit 2'))] },
        { hooks: [command(hookScript(dir, "ctx.sh", `echo '${ctx}'`))] },
      ],
    };
    const { run, tool, context } = setup(config, { allow: ["Note"] });
    const outcome = await run();
    expect(tool.calls).toHaveLength(1);
    expect(outcome.result.content).toBe("noted: hi\n\nPostToolUse hook feedback: line 3 is too long");
    expect(context.channels.reminders.peek()).toEqual([expect.stringContaining("lint ran")]);
  });

  it("reports a crashing hook without losing the result", async () => {
    const dir = tempDir();
    const { run } = setup(
      { PostToolUse: [{ hooks: [command(hookScript(dir, "crash.sh", "exit 3"))] }] },
      { allow: ["Note"] },
    );
    const outcome = await run();
    expect(outcome.result.content).toMatch(/^noted: hi\n\nPostToolUse hook error: .*exit code 3/);
  });
});

function replaySession(cwd: string, turns: string[], hooks: HookRunner) {
  const script = join(cwd, "script.jsonl");
  writeFileSync(script, `${turns.map((t) => JSON.stringify({ content: [{ type: "text", text: t }] })).join("\n")}\n`);
  const session = createSession({
    provider: createReplayProvider(script, { cwd }),
    model: "scripted",
    tools: [],
    canUseTool: createCanUseTool({ askHandler: createHeadlessAskHandler() }),
    cwd,
    transcript: false,
    loadMemory: false,
    appState: { hooks },
  });
  return session;
}

async function drain(generator: AsyncGenerator<unknown, unknown>): Promise<void> {
  for await (const _ of generator);
}

describe("session hooks", () => {
  it("UserPromptSubmit: exit 2 blocks the prompt before the model sees it", async () => {
    const cwd = tempDir();
    const hooks = new HookRunner({
      config: {
        UserPromptSubmit: [
          { hooks: [command(hookScript(cwd, "gate.sh", 'echo "no secrets in prompts" >&2; exit 2'))] },
        ],
      },
      cwd,
      sessionId: "s",
    });
    const session = replaySession(cwd, ["never"], hooks);
    await expect(drain(submitWithHooks(session, "my password is hunter2", hooks, () => {}))).rejects.toThrow(
      PromptBlockedError,
    );
    expect(session.messages).toEqual([]);
  });

  it("UserPromptSubmit: plain stdout becomes context for the model", async () => {
    const cwd = tempDir();
    const hooks = new HookRunner({
      config: { UserPromptSubmit: [{ hooks: [command(hookScript(cwd, "ctx.sh", 'echo "today is release day"'))] }] },
      cwd,
      sessionId: "s",
    });
    const session = replaySession(cwd, ["ok"], hooks);
    await drain(submitWithHooks(session, "hello", hooks, () => {}));
    const sent = JSON.stringify(session.messages);
    expect(sent).toContain("today is release day");
  });

  it("Stop: a hook can send the model back to work once, with its reason", async () => {
    const cwd = tempDir();
    const block = JSON.stringify({ decision: "block", reason: "the tests were not run" });
    // Blocks only the first stop (stop_hook_active false), as hooks written for Claude Code do.
    const script = hookScript(cwd, "stop.sh", `if grep -q '"stop_hook_active":false' ; then echo '${block}'; fi`);
    const hooks = new HookRunner({ config: { Stop: [{ hooks: [command(script)] }] }, cwd, sessionId: "s" });
    const session = replaySession(cwd, ["done", "ran the tests, now done"], hooks);
    await drain(submitWithHooks(session, "fix it", hooks, () => {}));
    const userTexts = session.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
    expect(userTexts[1]).toContain("the tests were not run");
    expect(session.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: [{ text: "ran the tests, now done" }],
    });
  });

  it("SessionStart: output becomes context for the first request", async () => {
    const cwd = tempDir();
    const hooks = new HookRunner({
      config: { SessionStart: [{ hooks: [command(hookScript(cwd, "start.sh", 'echo "branch: feature/x"'))] }] },
      cwd,
      sessionId: "s",
    });
    const session = replaySession(cwd, ["hi"], hooks);
    await runSessionStartHooks(session, hooks, "startup", () => {});
    expect(session.channels.reminders.peek()).toEqual([expect.stringContaining("branch: feature/x")]);
  });

  it("hooks come from every settings file", () => {
    const cwd = tempDir();
    const a = hookScript(cwd, "a.sh", "exit 0");
    writeFileSync(
      join(process.env.WARDEN_HOME!, "settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [command(a)] }] } }),
    );
    const setupResult = loadSessionPermissions({
      cwd,
      extraSettings: [JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command(a)] }] } })],
    });
    expect(setupResult.hooks?.has("PreToolUse")).toBe(true);
    expect(setupResult.hooks?.has("Stop")).toBe(true);
    expect(setupResult.hooks?.has("SessionStart")).toBe(false);
    writeFileSync(join(process.env.WARDEN_HOME!, "settings.json"), "{}");
  });
});
