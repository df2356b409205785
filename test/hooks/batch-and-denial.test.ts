// PostToolBatch (once per model response, after every result) and PermissionDenied (after the
// auto-mode classifier refuses a call), through the real loop with a replay script and real hook
// scripts that keep their stdin.
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HooksConfig } from "../../src/config/settings-schema.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import type { QueryEvent } from "../../src/loop/events.js";
import { createSession } from "../../src/loop/session.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import type { CanUseTool } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-batch-denial-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

const allowAll: CanUseTool = async () => ({ behavior: "allow" });

function tempDir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "warden-batch-denial-")));
}

/**
 * A hook that appends its stdin (one JSON line) to `<name>.log` and prints `answer`; returns the
 * command and a reader of the inputs it got.
 */
function recordingHook(dir: string, name: string, answer = "") {
  const log = join(dir, `${name}.log`);
  const path = join(dir, `${name}.sh`);
  const print = answer ? `printf '%s\\n' '${answer}'` : "true";
  writeFileSync(path, `#!/usr/bin/env bash\ncat >> '${log}'\n${print}\n`);
  chmodSync(path, 0o755);
  const inputs = (): Array<Record<string, unknown>> =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  return { command: { type: "command" as const, command: path }, inputs };
}

function replayScript(cwd: string, lines: object[]): string {
  const path = join(cwd, "script.jsonl");
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}

const text = (value: string) => ({ type: "text", text: value });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

function session(cwd: string, lines: object[], config: HooksConfig, canUseTool: CanUseTool = allowAll) {
  const hooks = new HookRunner({ config, cwd, sessionId: "s-hooks" });
  const s = createSession({
    provider: createReplayProvider(replayScript(cwd, lines), { cwd }),
    model: "scripted",
    tools: builtInTools(),
    canUseTool,
    cwd,
    transcript: false,
    loadMemory: false,
    appState: { hooks },
  });
  return { session: s, hooks };
}

async function drain(events: AsyncGenerator<QueryEvent, unknown>): Promise<QueryEvent[]> {
  const all: QueryEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Every user message's text the session holds, joined (tool results and reminders included). */
function userTexts(s: { messages: readonly { role: string; content: unknown }[] }): string {
  return JSON.stringify(s.messages.filter((m) => m.role === "user"));
}

describe("PostToolBatch", () => {
  it("fires once for a response's calls with every result; its feedback and context reach the next request", async () => {
    const cwd = tempDir();
    const answer = JSON.stringify({
      decision: "block",
      reason: "run the tests before going on",
      hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "batch context 42" },
    });
    const batch = recordingHook(cwd, "batch", answer);
    const { session: s } = session(
      cwd,
      [
        {
          content: [
            toolUse("b1", "Bash", { command: "echo first-call" }),
            toolUse("b2", "Bash", { command: "echo oops >&2; exit 4" }),
          ],
        },
        { content: [text("done")] },
      ],
      { PostToolBatch: [{ hooks: [batch.command] }] },
    );
    await drain(s.submitMessage("run both"));
    const inputs = batch.inputs();
    // One firing for the two calls, and none after the final text-only response.
    expect(inputs).toHaveLength(1);
    const calls = inputs[0]?.tool_calls as Array<Record<string, unknown>>;
    expect(inputs[0]).toMatchObject({ hook_event_name: "PostToolBatch", session_id: "s-hooks" });
    expect(calls.map((c) => c.tool_use_id)).toEqual(["b1", "b2"]);
    expect(calls[0]).toMatchObject({ tool_name: "Bash", tool_input: { command: "echo first-call" }, is_error: false });
    expect(String(calls[0]?.tool_response)).toContain("first-call");
    expect(calls[1]).toMatchObject({ is_error: true });
    const sent = userTexts(s);
    expect(sent).toContain("run the tests before going on");
    expect(sent).toContain("batch context 42");
  });

  it("an exit code 2 hook's stderr reaches the model as feedback", async () => {
    const cwd = tempDir();
    const path = join(cwd, "refuse.sh");
    writeFileSync(path, "#!/usr/bin/env bash\ncat >/dev/null\necho 'lint failed on a.ts' >&2\nexit 2\n");
    chmodSync(path, 0o755);
    const { session: s } = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "true" })] }, { content: [text("ok")] }],
      { PostToolBatch: [{ hooks: [{ type: "command", command: path }] }] },
    );
    await drain(s.submitMessage("go"));
    expect(userTexts(s)).toContain("PostToolBatch hook feedback: lint failed on a.ts");
  });
});

describe("PermissionDenied", () => {
  const classifierDenies: CanUseTool = async () => ({
    behavior: "deny",
    message: "auto mode refused this command",
    decisionReason: { type: "classifier", classifier: "auto-mode", reason: "pushes to a remote" },
  });

  it("fires after a classifier denial with the reason; retry: true tells the model it may retry", async () => {
    const cwd = tempDir();
    const denied = recordingHook(
      cwd,
      "denied",
      JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true } }),
    );
    const { session: s } = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "git push" })] }, { content: [text("ok")] }],
      { PermissionDenied: [{ matcher: "Bash", hooks: [denied.command] }] },
      classifierDenies,
    );
    await drain(s.submitMessage("push"));
    expect(denied.inputs()).toEqual([
      expect.objectContaining({
        hook_event_name: "PermissionDenied",
        tool_name: "Bash",
        tool_input: { command: "git push" },
        tool_use_id: "b1",
        reason: "pushes to a remote",
      }),
    ]);
    const sent = userTexts(s);
    expect(sent).toContain("auto mode refused this command");
    expect(sent).toContain("A PermissionDenied hook says you may retry this call.");
  });

  it("does not fire for a denial by a rule, and its matcher filters by tool", async () => {
    const cwd = tempDir();
    const denied = recordingHook(cwd, "denied");
    const ruleDenies: CanUseTool = async () => ({
      behavior: "deny",
      message: "denied by rule",
      decisionReason: { type: "other", reason: "a deny rule" },
    });
    const first = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "git push" })] }, { content: [text("ok")] }],
      { PermissionDenied: [{ hooks: [denied.command] }] },
      ruleDenies,
    );
    await drain(first.session.submitMessage("push"));
    const second = session(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "git push" })] }, { content: [text("ok")] }],
      { PermissionDenied: [{ matcher: "Edit", hooks: [denied.command] }] },
      classifierDenies,
    );
    await drain(second.session.submitMessage("push"));
    expect(denied.inputs()).toEqual([]);
  });
});
