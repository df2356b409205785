// The hook events beyond the first seven, each through the real loop with a replay script and a
// real hook script that keeps its stdin: PostToolUseFailure (a failed Bash call), SubagentStart and
// SubagentStop (an Agent call), Notification (a permission ask), SessionEnd, and the warning for
// an event Warden does not run.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { createSession } from "../../src/loop/session.js";
import { runSessionEndHooks } from "../../src/loop/session-hooks.js";
import { type AskHandler, createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import { loadSessionPermissions } from "../../src/permissions/settings/index.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { builtInTools } from "../../src/tools/registry.js";
import {
  allowAll,
  drain,
  hookedSession,
  recordingHook,
  replayScript,
  tempDir,
  text,
  toolUse,
  userTexts,
} from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-hook-events-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

describe("PostToolUseFailure", () => {
  it("fires for a call that ended in an error, with the error; its context reaches the model", async () => {
    const cwd = tempDir("warden-hook-events-");
    const context = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "try the other folder" },
    });
    const failure = recordingHook(cwd, "failure", context);
    const post = recordingHook(cwd, "post");
    const { session: s } = hookedSession(
      cwd,
      [
        { content: [toolUse("b1", "Bash", { command: "ls /no-such-folder-here; exit 3" })] },
        { content: [text("it failed")] },
      ],
      {
        PostToolUseFailure: [{ matcher: "Bash", hooks: [failure.command] }],
        PostToolUse: [{ hooks: [post.command] }],
      },
    );
    await drain(s.submitMessage("list it"));
    const [input] = failure.inputs();
    expect(input).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "ls /no-such-folder-here; exit 3" },
      tool_use_id: "b1",
      session_id: "s-hooks",
    });
    expect(String(input?.error)).toContain("no-such-folder-here");
    // The failed call is PostToolUseFailure's, not PostToolUse's.
    expect(post.inputs()).toEqual([]);
    expect(userTexts(s)).toContain("try the other folder");
  });

  it("does not fire for a call that succeeded", async () => {
    const cwd = tempDir("warden-hook-events-");
    const failure = recordingHook(cwd, "failure");
    const { session: s } = hookedSession(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "echo fine" })] }, { content: [text("ok")] }],
      { PostToolUseFailure: [{ hooks: [failure.command] }] },
    );
    await drain(s.submitMessage("run it"));
    expect(failure.inputs()).toEqual([]);
  });
});

describe("SubagentStart and SubagentStop", () => {
  it("fire around a subagent with its id and type; SubagentStop sends it back to work once", async () => {
    const cwd = tempDir("warden-hook-events-");
    const start = recordingHook(
      cwd,
      "start",
      JSON.stringify({ hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "house rule 7" } }),
    );
    // Blocks only the first stop, as hooks written for Claude Code do (stop_hook_active).
    const stopLog = join(cwd, "stop.log");
    const stopPath = join(cwd, "stop.sh");
    const block = JSON.stringify({ decision: "block", reason: "count the lines too" });
    writeFileSync(
      stopPath,
      `#!/usr/bin/env bash\ninput=$(cat)\nprintf '%s\\n' "$input" >> '${stopLog}'\n` +
        `if printf '%s' "$input" | grep -q '"stop_hook_active":false'; then printf '%s\\n' '${block}'; fi\n`,
    );
    chmodSync(stopPath, 0o755);
    const { session: s } = hookedSession(
      cwd,
      [
        { content: [toolUse("m1", "Agent", { description: "look", prompt: "Look around", subagent_type: "Explore" })] },
        { agent: "look", content: [text("found two files")] },
        { agent: "look", content: [text("found two files, 12 lines")] },
        { content: [text("done")] },
      ],
      {
        SubagentStart: [{ matcher: "Explore", hooks: [start.command] }],
        SubagentStop: [{ matcher: "Explore", hooks: [{ type: "command", command: stopPath }] }],
      },
    );
    const events = await drain(s.submitMessage("go"));
    const [started] = start.inputs();
    expect(started).toMatchObject({ hook_event_name: "SubagentStart", agent_type: "Explore" });
    expect(String(started?.agent_id)).toMatch(/^a/);
    const stops = readFileSync(stopLog, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(stops).toHaveLength(2);
    expect(stops[0]).toMatchObject({
      hook_event_name: "SubagentStop",
      agent_id: started?.agent_id,
      agent_type: "Explore",
      stop_hook_active: false,
      last_assistant_message: "found two files",
    });
    expect(stops[1]).toMatchObject({ stop_hook_active: true, last_assistant_message: "found two files, 12 lines" });
    // The parent reads the report the subagent gave after it was sent back.
    const result = events.find((e) => e.type === "tool_result" && e.result.tool_use_id === "m1");
    expect(JSON.stringify(result)).toContain("found two files, 12 lines");
  });

  it("SubagentStart's context reaches the subagent's request", async () => {
    const cwd = tempDir("warden-hook-events-");
    const start = recordingHook(
      cwd,
      "start",
      JSON.stringify({ hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "house rule 7" } }),
    );
    const seen: string[] = [];
    const provider = createReplayProvider(
      replayScript(cwd, [
        { content: [toolUse("m1", "Agent", { description: "look", prompt: "Look", subagent_type: "Explore" })] },
        { agent: "look", content: [text("ok")] },
        { content: [text("done")] },
      ]),
      { cwd },
    );
    const s = createSession({
      provider: {
        ...provider,
        stream(request) {
          if (request.agent) seen.push(JSON.stringify(request.messages));
          return provider.stream(request);
        },
      },
      model: "scripted",
      tools: builtInTools(),
      canUseTool: allowAll,
      cwd,
      transcript: false,
      loadMemory: false,
      appState: {
        hooks: new HookRunner({ config: { SubagentStart: [{ hooks: [start.command] }] }, cwd, sessionId: "s" }),
      },
    });
    await drain(s.submitMessage("go"));
    expect(seen.join("\n")).toContain("house rule 7");
  });
});

describe("Notification", () => {
  it("permission_prompt fires when somebody is asked for permission", async () => {
    const cwd = tempDir("warden-hook-events-");
    const note = recordingHook(cwd, "note");
    let notifiedBeforeAnswer = false;
    const ask: AskHandler = async () => {
      notifiedBeforeAnswer = true;
      return { behavior: "deny", message: "no" };
    };
    const { session: s } = hookedSession(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "touch made.txt" })] }, { content: [text("ok")] }],
      { Notification: [{ matcher: "permission_prompt", hooks: [note.command] }] },
      createCanUseTool({ askHandler: ask }),
    );
    await drain(s.submitMessage("make it"));
    expect(notifiedBeforeAnswer).toBe(true);
    // Fire-and-forget: the hook may still be writing; wait for its line rather than a fixed time.
    await expect.poll(() => note.inputs().length, { timeout: 10_000 }).toBe(1);
    expect(note.inputs()[0]).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message: expect.stringContaining("Bash"),
    });
  });
});

describe("Notification without anybody to ask", () => {
  it("does not fire when the ask handler refuses without asking (headless -p)", async () => {
    const cwd = tempDir("warden-hook-events-");
    const { session: s, hooks } = hookedSession(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "touch made.txt" })] }, { content: [text("ok")] }],
      {},
      createCanUseTool({ askHandler: createHeadlessAskHandler() }),
    );
    // A callback is called in the same tick the hook is started, so its absence is final once the ask is answered.
    const notified: unknown[] = [];
    hooks.addCallbacks({ Notification: [{ callbackIds: ["n"] }] }, async (_id, input) => {
      notified.push(input);
      return {};
    });
    const events = await drain(s.submitMessage("make it"));
    expect(JSON.stringify(events)).toContain("nobody can approve it");
    expect(notified).toEqual([]);
  });
});

describe("SessionEnd", () => {
  it("runs with the reason and is cut off at its bound", async () => {
    const cwd = tempDir("warden-hook-events-");
    const end = recordingHook(cwd, "end");
    const slowPath = join(cwd, "slow.sh");
    writeFileSync(slowPath, "#!/usr/bin/env bash\nexec sleep 30\n");
    chmodSync(slowPath, 0o755);
    const hooks = new HookRunner({
      config: { SessionEnd: [{ hooks: [end.command, { type: "command", command: slowPath, timeout: 600 }] }] },
      cwd,
      sessionId: "s-end",
    });
    const warnings: string[] = [];
    await runSessionEndHooks(hooks, "prompt_input_exit", (w) => warnings.push(w));
    expect(end.inputs()).toEqual([
      expect.objectContaining({ hook_event_name: "SessionEnd", reason: "prompt_input_exit", session_id: "s-end" }),
    ]);
    // The slow hook was killed (by the bound, not its own 600 s timeout) and said so.
    expect(warnings.join("\n")).toMatch(/slow\.sh/);
  });
});

describe("SessionEnd callbacks", () => {
  it("an SDK callback that never answers is cut off at the same bound", async () => {
    const cwd = tempDir("warden-hook-events-");
    const hooks = new HookRunner({ config: {}, cwd, sessionId: "s-end" });
    const asked: Array<Record<string, unknown>> = [];
    hooks.addCallbacks({ SessionEnd: [{ callbackIds: ["cb1"], timeout: 600 }] }, (_id, input) => {
      asked.push(input);
      return new Promise(() => {});
    });
    const warnings: string[] = [];
    await runSessionEndHooks(hooks, "other", (w) => warnings.push(w));
    expect(asked).toEqual([expect.objectContaining({ hook_event_name: "SessionEnd", reason: "other" })]);
    expect(warnings.join("\n")).toContain("callback cb1");
  });
});

describe("unknown hook events", () => {
  it("are reported once, naming the settings file; known new events are not", () => {
    const cwd = tempDir("warden-hook-events-");
    const file = join(cwd, "extra-settings.json");
    const a = recordingHook(cwd, "a");
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          SessionEnd: [{ hooks: [a.command] }],
          PostToolBatch: [{ hooks: [a.command] }],
          NoSuchHookEvent: [{ hooks: [a.command] }],
        },
      }),
    );
    const setup = loadSessionPermissions({ cwd, extraSettings: [file] });
    const about = setup.warnings.filter((w) => w.includes("NoSuchHookEvent"));
    expect(about).toHaveLength(1);
    expect(about[0]).toContain(file);
    expect(setup.warnings.join("\n")).not.toContain("SessionEnd");
    expect(setup.warnings.join("\n")).not.toContain("PostToolBatch");
    expect(setup.hooks?.has("SessionEnd")).toBe(true);
  });
});
