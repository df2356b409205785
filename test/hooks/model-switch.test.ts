// PreModelSwitch and PostModelSwitch: a switch through the session's command (the SDK's set_model)
// tells the hooks both models, what was asked for and what re-caching the conversation costs; a
// PreModelSwitch hook may refuse it (the model unchanged), and a PostModelSwitch hook's
// additionalContext reaches the model's next request. Real session, real command hooks.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createSessionCommands,
  type ModelSwitch,
  ModelSwitchRefusedError,
} from "../../src/control/session-commands.js";
import type { SessionEngine } from "../../src/loop/session.js";
import { modelInfoFor } from "../../src/models/resolve.js";
import { drain, hookedSession, recordingHook, tempDir, text, userTexts } from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-model-switch-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

/** Resolves a name to an Anthropic model's info (catalog prices) and switches the session's model info. */
function switcher(session: SessionEngine): ModelSwitch {
  return async (name) => {
    const to = modelInfoFor("anthropic", name && name !== "default" ? name : "scripted");
    return { to, apply: () => session.setModelInfo(to) };
  };
}

const answer = (words: string) => ({
  content: [text(words)],
  usage: { input_tokens: 1000, output_tokens: 200 },
});

describe("PreModelSwitch and PostModelSwitch", () => {
  it("tell the hooks the switch and its cost; PostModelSwitch's context reaches the next request", async () => {
    const cwd = tempDir("warden-model-switch-");
    const pre = recordingHook(cwd, "pre");
    const post = recordingHook(
      cwd,
      "post",
      JSON.stringify({
        hookSpecificOutput: { hookEventName: "PostModelSwitch", additionalContext: "now on haiku: keep it short" },
      }),
    );
    const { session } = hookedSession(cwd, [answer("first"), answer("second")], {
      PreModelSwitch: [{ hooks: [pre.command] }],
      PostModelSwitch: [{ hooks: [post.command] }],
    });
    await drain(session.submitMessage("hello"));
    const commands = createSessionCommands(session, { switchModel: switcher(session) });
    const result = await commands.setModel("claude-haiku-4-5", "sdk");
    expect(result.errors).toEqual([]);
    expect(session.modelInfo.model).toBe("claude-haiku-4-5");
    const expected = {
      session_id: "s-hooks",
      from_model: "scripted",
      to_model: "claude-haiku-4-5",
      requested_model: "claude-haiku-4-5",
      source: "sdk",
      context_tokens: 1200,
      prompt_cache_warm: true,
      cache_ttl: "5m",
      pricing: "catalog",
    };
    expect(pre.inputs()).toEqual([expect.objectContaining({ hook_event_name: "PreModelSwitch", ...expected })]);
    expect(post.inputs()).toEqual([expect.objectContaining({ hook_event_name: "PostModelSwitch", ...expected })]);
    // Haiku 4.5 writes its cache at $1.25 a million tokens.
    expect(pre.inputs()[0]?.estimated_cache_write_usd).toBeCloseTo((1200 * 1.25) / 1_000_000, 10);
    expect(userTexts(session)).not.toContain("keep it short");
    await drain(session.submitMessage("again"));
    expect(userTexts(session)).toContain("now on haiku: keep it short");
  });

  it("a PreModelSwitch hook that denies keeps the model, says why, and no PostModelSwitch runs", async () => {
    const cwd = tempDir("warden-model-switch-");
    const post = recordingHook(cwd, "post");
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreModelSwitch",
        permissionDecision: "deny",
        permissionDecisionReason: "opus only in this repository",
      },
    });
    const { session } = hookedSession(cwd, [], {
      PreModelSwitch: [{ hooks: [{ type: "command", command: `printf '%s\\n' '${deny}'` }] }],
      PostModelSwitch: [{ hooks: [post.command] }],
    });
    const commands = createSessionCommands(session, { switchModel: switcher(session) });
    const refused = commands.setModel("claude-haiku-4-5");
    await expect(refused).rejects.toBeInstanceOf(ModelSwitchRefusedError);
    await expect(refused).rejects.toThrow(/not switched to claude-haiku-4-5: opus only in this repository/);
    expect(session.modelInfo.model).toBe("scripted");
    expect(post.inputs()).toEqual([]);
  });

  it("exit code 2 and an `ask` refuse too; a hook that fails is reported and the switch goes on", async () => {
    const cwd = tempDir("warden-model-switch-");
    const blocking = hookedSession(cwd, [], {
      PreModelSwitch: [{ hooks: [{ type: "command", command: "echo 'not during a release' >&2; exit 2" }] }],
    }).session;
    await expect(
      createSessionCommands(blocking, { switchModel: switcher(blocking) }).setModel("claude-haiku-4-5"),
    ).rejects.toThrow(/not during a release/);
    expect(blocking.modelInfo.model).toBe("scripted");

    const ask = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreModelSwitch", permissionDecision: "ask" } });
    const asking = hookedSession(cwd, [], {
      PreModelSwitch: [{ hooks: [{ type: "command", command: `printf '%s\\n' '${ask}'` }] }],
    }).session;
    await expect(
      createSessionCommands(asking, { switchModel: switcher(asking) }).setModel("claude-haiku-4-5"),
    ).rejects.toThrow(/answered "ask", which cannot be asked here/);

    const failing = hookedSession(cwd, [], {
      PreModelSwitch: [{ hooks: [{ type: "command", command: "echo 'pricing service down' >&2; exit 1" }] }],
    }).session;
    const result = await createSessionCommands(failing, { switchModel: switcher(failing) }).setModel(
      "claude-haiku-4-5",
    );
    expect(result.errors.join("\n")).toContain("pricing service down");
    expect(failing.modelInfo.model).toBe("claude-haiku-4-5");
  });
});
