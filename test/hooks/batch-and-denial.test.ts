// PostToolBatch (once per model response, after every result) and PermissionDenied (after the
// auto-mode classifier refuses a call), through the real loop with a replay script and real hook
// scripts that keep their stdin.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CanUseTool } from "../../src/tool/types.js";
import { drain, hookedSession, recordingHook, tempDir, text, toolUse, userTexts } from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-batch-denial-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

describe("PostToolBatch", () => {
  it("fires once for a response's calls with every result; its feedback and context reach the next request", async () => {
    const cwd = tempDir("warden-batch-denial-");
    const answer = JSON.stringify({
      decision: "block",
      reason: "run the tests before going on",
      hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "batch context 42" },
    });
    const batch = recordingHook(cwd, "batch", answer);
    const { session: s } = hookedSession(
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
    const cwd = tempDir("warden-batch-denial-");
    const path = join(cwd, "refuse.sh");
    writeFileSync(path, "#!/usr/bin/env bash\ncat >/dev/null\necho 'lint failed on a.ts' >&2\nexit 2\n");
    chmodSync(path, 0o755);
    const { session: s } = hookedSession(
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
    const cwd = tempDir("warden-batch-denial-");
    const denied = recordingHook(
      cwd,
      "denied",
      JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true } }),
    );
    const { session: s } = hookedSession(
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
    const cwd = tempDir("warden-batch-denial-");
    const denied = recordingHook(cwd, "denied");
    const ruleDenies: CanUseTool = async () => ({
      behavior: "deny",
      message: "denied by rule",
      decisionReason: { type: "other", reason: "a deny rule" },
    });
    const first = hookedSession(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "git push" })] }, { content: [text("ok")] }],
      { PermissionDenied: [{ hooks: [denied.command] }] },
      ruleDenies,
    );
    await drain(first.session.submitMessage("push"));
    const second = hookedSession(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "git push" })] }, { content: [text("ok")] }],
      { PermissionDenied: [{ matcher: "Edit", hooks: [denied.command] }] },
      classifierDenies,
    );
    await drain(second.session.submitMessage("push"));
    expect(denied.inputs()).toEqual([]);
  });
});
