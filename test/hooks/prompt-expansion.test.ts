// UserPromptExpansion: a typed `/name args` naming a command or skill is told to the hooks before
// it becomes that text; they may block it or add context, which follows the text (never inside
// the part whose `!`command`` marks run).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandPrompt, withHookContext } from "../../src/cli/session/skills-setup.js";
import type { HooksConfig } from "../../src/config/settings-schema.js";
import { discoverSkills } from "../../src/config/skills/index.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { recordingHook, tempDir } from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-expansion-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

async function project(config: (cwd: string) => HooksConfig) {
  const cwd = tempDir("warden-expansion-");
  mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "commands", "review.md"), "Review $ARGUMENTS with care.\n");
  const catalog = await discoverSkills({ cwd, projectTrusted: true });
  const hooks = new HookRunner({ config: config(cwd), cwd, sessionId: "s-expansion" });
  const warnings: string[] = [];
  const expand = (prompt: string) =>
    expandPrompt(prompt, catalog, emptyPermissionContext(cwd), cwd, (m) => warnings.push(m), hooks);
  return { cwd, expand, warnings };
}

describe("UserPromptExpansion", () => {
  it("fires for a command with its name, arguments and source; its context follows the text", async () => {
    let hook: ReturnType<typeof recordingHook> | undefined;
    const answer = JSON.stringify({
      hookSpecificOutput: { hookEventName: "UserPromptExpansion", additionalContext: "house style: tabs" },
    });
    const { expand } = await project((cwd) => {
      hook = recordingHook(cwd, "expansion", answer);
      return { UserPromptExpansion: [{ hooks: [hook.command] }] };
    });
    const expanded = await expand("/review src/a.ts");
    expect(expanded).toMatchObject({ ok: true, prompt: "Review src/a.ts with care." });
    expect(withHookContext("Review src/a.ts with care.", expanded)).toBe(
      "Review src/a.ts with care.\n\nhouse style: tabs",
    );
    expect(hook?.inputs()).toEqual([
      expect.objectContaining({
        hook_event_name: "UserPromptExpansion",
        session_id: "s-expansion",
        expansion_type: "slash_command",
        command_name: "review",
        command_args: "src/a.ts",
        command_source: "project",
        prompt: "/review src/a.ts",
      }),
    ]);
    // A prompt that names no command or skill is not an expansion.
    await expand("/tmp/notes.txt is where the notes are");
    await expand("plain words");
    expect(hook?.inputs()).toHaveLength(1);
  });

  it("exit code 2 blocks the expansion with the hook's reason", async () => {
    const { expand } = await project((cwd) => {
      const path = join(cwd, "refuse.sh");
      writeFileSync(path, "#!/usr/bin/env bash\ncat >/dev/null\necho 'no reviews on Fridays' >&2\nexit 2\n");
      chmodSync(path, 0o755);
      return { UserPromptExpansion: [{ hooks: [{ type: "command", command: path }] }] };
    });
    const expanded = await expand("/review src/a.ts");
    expect(expanded.ok).toBe(false);
    expect(expanded.ok ? "" : expanded.message).toContain("no reviews on Fridays");
  });
});
