// PreSkillShellCommand: before each `!`command`` line of a typed command runs, the hooks are told
// the command, its id, the command's name and who loaded it; a hook that refuses (deny, ask, defer,
// exit code 2, a changed command, or a failure) keeps that line from running and its reason stands
// in the line's place, while the other lines run. Real session, real bash, real command hooks.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPromptMarks } from "../../src/tools/skill/shell-marks.js";
import { allowAll, hookedSession, recordingHook, tempDir } from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-skill-shell-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

/** A hook that answers `json` for a command holding `word`, and nothing for any other. */
function refusesWhen(word: string, json: object) {
  return {
    type: "command" as const,
    command: `input=$(cat); case "$input" in *'${word}'*) printf '%s\\n' '${JSON.stringify(json)}';; esac`,
  };
}

describe("PreSkillShellCommand", () => {
  it("is told each line with the fields the SDK names, and the lines it allows run", async () => {
    const cwd = tempDir("warden-skill-shell-");
    const seen = recordingHook(cwd, "seen");
    const { session } = hookedSession(cwd, [], { PreSkillShellCommand: [{ matcher: "Bash", hooks: [seen.command] }] });
    const run = await runPromptMarks("A: !`touch a.txt && echo made-a`\nB: !`echo b`", session, allowAll, "/mk now");
    expect(run.text).toBe("A: made-a\nB: b");
    expect(existsSync(join(cwd, "a.txt"))).toBe(true);
    const inputs = seen.inputs();
    expect(inputs).toEqual([
      expect.objectContaining({
        hook_event_name: "PreSkillShellCommand",
        session_id: "s-hooks",
        tool_name: "Bash",
        tool_input: { command: "touch a.txt && echo made-a" },
        command_name: "mk",
        invoked_by: "user",
      }),
      expect.objectContaining({ tool_input: { command: "echo b" }, command_name: "mk" }),
    ]);
    expect(inputs[0]?.tool_use_id).toEqual(expect.any(String));
    expect(inputs[0]?.tool_use_id).not.toBe(inputs[1]?.tool_use_id);
  });

  it("a deny keeps that line from running, its reason in the line's place; the other lines run", async () => {
    const cwd = tempDir("warden-skill-shell-");
    writeFileSync(join(cwd, "keep.txt"), "precious");
    const deny = {
      hookSpecificOutput: {
        hookEventName: "PreSkillShellCommand",
        permissionDecision: "deny",
        permissionDecisionReason: "no deleting from a command",
      },
    };
    const { session } = hookedSession(cwd, [], { PreSkillShellCommand: [{ hooks: [refusesWhen("rm ", deny)] }] });
    const run = await runPromptMarks("Gone: !`rm keep.txt`\nStill: !`echo here`", session, allowAll, "/clean");
    expect(existsSync(join(cwd, "keep.txt"))).toBe(true);
    expect(run.text).toBe(
      "Gone: [warden did not run `rm keep.txt`: a PreSkillShellCommand hook refused it: no deleting from a command]\nStill: here",
    );
  });

  it("ask, defer, a changed command, exit code 2 and a failing hook all keep the line from running", async () => {
    const cwd = tempDir("warden-skill-shell-");
    const specific = (extra: object) => ({ hookSpecificOutput: { hookEventName: "PreSkillShellCommand", ...extra } });
    const { session } = hookedSession(cwd, [], {
      PreSkillShellCommand: [
        {
          hooks: [
            refusesWhen("one", specific({ permissionDecision: "ask" })),
            refusesWhen("two", specific({ permissionDecision: "defer" })),
            refusesWhen("three", specific({ updatedInput: { command: "touch swapped" } })),
            {
              type: "command",
              command: `input=$(cat); case "$input" in *four*) echo 'not on Fridays' >&2; exit 2;; *five*) exit 1;; esac`,
            },
          ],
        },
      ],
    });
    const lines = ["one", "two", "three", "four", "five"].map((n) => `!\`touch ${n}\``).join("\n");
    const run = await runPromptMarks(lines, session, allowAll, "/t");
    for (const n of ["one", "two", "three", "four", "five", "swapped"]) expect(existsSync(join(cwd, n))).toBe(false);
    const out = run.text.split("\n");
    expect(out[0]).toContain('answered "ask", which cannot be asked here');
    expect(out[1]).toContain('answered "defer"');
    expect(out[2]).toContain("tried to change the command, which is never applied");
    expect(out[3]).toContain("not on Fridays");
    expect(out[4]).toMatch(/failed with exit code 1, so the command was not run/);
    expect(out.every((line) => line.startsWith("[warden did not run `touch "))).toBe(true);
  });
});
