// The settings' statusLine command: given the session's JSON on stdin (Claude Code's shape), its
// first line is what the UI shows; a project's statusLine waits for workspace trust.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderStatusLine, statusLineInput } from "../../src/cli/interactive/status-line-command.js";
import { settingsValue } from "../../src/config/settings.js";
import { createSession } from "../../src/loop/session.js";
import { loadSessionPermissions } from "../../src/permissions/settings/index.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { builtInTools } from "../../src/tools/registry.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-status-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

const tempDir = () => realpathSync(mkdtempSync(join(tmpdir(), "warden-status-")));

describe("statusLine command", () => {
  it("reads the session's JSON and its first line is the status", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "script.jsonl"), `${JSON.stringify({ content: [{ type: "text", text: "hi" }] })}\n`);
    const session = createSession({
      provider: createReplayProvider(join(cwd, "script.jsonl"), { cwd }),
      model: "scripted",
      tools: builtInTools(),
      canUseTool: async () => ({ behavior: "allow" }),
      cwd,
      transcript: false,
      loadMemory: false,
    });
    const input = statusLineInput(session, Date.now());
    expect(input).toMatchObject({
      hook_event_name: "Status",
      session_id: session.sessionId,
      cwd,
      workspace: { current_dir: cwd, project_dir: cwd },
      permission_mode: "default",
      output_style: { name: "default" },
    });
    // The style in force is named as the session was given it.
    expect(statusLineInput(session, Date.now(), "Explanatory").output_style).toEqual({ name: "Explanatory" });
    // jq-free: the command pulls two fields out of its stdin with node, as a user's script would.
    const command = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log("[" + j.model.id + "] " + j.workspace.current_dir);console.log("second line")})'`;
    const line = await renderStatusLine({ type: "command", command }, input, cwd);
    expect(line).toBe(`[${String((input.model as { id: string }).id)}] ${cwd}`);
  });

  it("a failing command shows nothing", async () => {
    const line = await renderStatusLine({ type: "command", command: "echo half; exit 3" }, {}, tempDir());
    expect(line).toBeUndefined();
  });

  it("a project's statusLine applies only once the folder is trusted", () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command: "echo from-the-repo" } }),
    );
    const untrusted = loadSessionPermissions({ cwd, cli: {}, extraSettings: [] });
    expect(settingsValue(untrusted.settings, "statusLine")).toBeUndefined();
    expect(untrusted.trustNotice).toContain("echo from-the-repo");
    const trusted = loadSessionPermissions({ cwd, cli: {}, extraSettings: [], trustProject: true });
    expect(settingsValue(trusted.settings, "statusLine")).toMatchObject({ command: "echo from-the-repo" });
  });
});
