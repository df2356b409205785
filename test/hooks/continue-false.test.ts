// Claude Code's `continue: false`, which any hook may answer: the run stops after the hooks, with
// `stopReason` for the person. A tool call's hooks (PreToolUse, PostToolUse, PostToolUseFailure,
// PostToolBatch) answered it and the loop went on to the next request: PostToolUse's was silently
// ignored, PreToolUse's refused only the call. Through the real loop, a replay script and real hook
// scripts: the query ends after the response's calls, and the next scripted turn is never asked for.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HooksConfig } from "../../src/config/settings-schema.js";
import type { TerminalEvent } from "../../src/loop/events.js";
import { submitWithHooks } from "../../src/loop/session-hooks.js";
import { drain, hookedSession, recordingHook, tempDir, text, toolUse } from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-continue-false-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

const STOP = JSON.stringify({ continue: false, stopReason: "the build is red: stop here" });

describe("continue: false from a tool call's hook", () => {
  it.each([
    ["PreToolUse", "echo fine"],
    ["PostToolUse", "echo fine"],
    ["PostToolUseFailure", "exit 4"],
    ["PostToolBatch", "echo fine"],
  ] as const)("%s ends the run after the response's calls, with its stopReason", async (event, command) => {
    const cwd = tempDir("warden-continue-false-");
    const hook = recordingHook(cwd, "stop", STOP);
    const config: HooksConfig = { [event]: [{ hooks: [hook.command] }] };
    const { session: s } = hookedSession(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command })] }, { content: [text("NEXT TURN RAN")] }],
      config,
    );
    const events = await drain(s.submitMessage("go"));
    expect(hook.inputs().length).toBeGreaterThan(0);
    const terminal = events.find((e): e is TerminalEvent => e.type === "terminal");
    expect(terminal).toMatchObject({ reason: "hook_stopped", hookStopReason: "the build is red: stop here" });
    expect(JSON.stringify(s.messages)).not.toContain("NEXT TURN RAN");
    // Every call still has its result, so the conversation can go on with the next prompt.
    const results = s.messages.flatMap((m) =>
      m.role === "user" && Array.isArray(m.content) ? m.content.filter((b) => b.type === "tool_result") : [],
    );
    expect(results.map((r) => (r as { tool_use_id: string }).tool_use_id)).toEqual(["b1"]);
  });

  it("a stop asked for in one prompt does not end the next one", async () => {
    const cwd = tempDir("warden-continue-false-");
    const hook = recordingHook(cwd, "stop", STOP);
    const { session: s } = hookedSession(
      cwd,
      [{ content: [toolUse("b1", "Bash", { command: "echo fine" })] }, { content: [text("second prompt answered")] }],
      { PostToolUse: [{ hooks: [hook.command] }] },
    );
    await drain(s.submitMessage("go"));
    const second = await drain(s.submitMessage("and now?"));
    expect(second.find((e) => e.type === "terminal")).toMatchObject({ reason: "completed" });
    expect(JSON.stringify(s.messages)).toContain("second prompt answered");
  });

  it("a Stop hook's continue: false wins over a block from the same answer: the model is not sent back", async () => {
    const cwd = tempDir("warden-continue-false-");
    const hook = recordingHook(
      cwd,
      "stop",
      JSON.stringify({ decision: "block", reason: "keep going", continue: false, stopReason: "enough" }),
    );
    const hooked = hookedSession(cwd, [{ content: [text("first answer")] }, { content: [text("SENT BACK")] }], {
      Stop: [{ hooks: [hook.command] }],
    });
    for await (const _ of submitWithHooks(hooked.session, "go", hooked.hooks, () => undefined));
    expect(hook.inputs()).toHaveLength(1);
    expect(JSON.stringify(hooked.session.messages)).not.toContain("SENT BACK");
  });
});
