// Leaving the sandbox (dangerouslyDisableSandbox) is the user's call every time: with the sandbox on
// it asks whatever allow rule or mode would otherwise settle the command, and it is refused outright
// when the settings forbid unsandboxed commands. Decided by the real pipeline on the real tool.
import { afterEach, describe, expect, it } from "vitest";
import { hasPermissionsToUseTool } from "../../../src/permissions/pipeline/index.js";
import type { PermissionMode } from "../../../src/tool/permission-types.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { contextWith, type RuleSet } from "../../shell/helpers.js";
import { createSession, type Session, text } from "./harness.js";

const sessions: Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.cleanup();
});

function session(sandbox: Record<string, unknown>): Session {
  const made = createSession({ sandboxSettings: sandbox });
  sessions.push(made);
  return made;
}

async function decision(
  made: Session,
  input: { command: string; dangerouslyDisableSandbox?: boolean },
  rules: RuleSet,
  mode: PermissionMode = "default",
) {
  const permissionContext = {
    ...contextWith(rules, [made.project]),
    mode,
    isBypassPermissionsModeAvailable: true,
  };
  return hasPermissionsToUseTool(BashTool, input, made.context, permissionContext);
}

describe("dangerouslyDisableSandbox with the sandbox on", () => {
  it("asks as a safety check even when Bash is allowed outright, a prefix rule matches, or bypass mode is on", async () => {
    const made = session({ enabled: true });
    const input = { command: "ls", dangerouslyDisableSandbox: true };
    const cases: Array<[RuleSet, PermissionMode]> = [
      [{ allow: ["Bash"] }, "default"],
      [{ allow: ["Bash(ls:*)"] }, "default"],
      [{}, "bypassPermissions"],
      [{}, "acceptEdits"],
    ];
    for (const [rules, mode] of cases) {
      const result = await decision(made, input, rules, mode);
      expect(result.behavior, `${JSON.stringify(rules)} ${mode}`).toBe("ask");
      expect(result.decisionReason).toMatchObject({ type: "safetyCheck" });
      expect("message" in result ? result.message : "").toContain("OUTSIDE the sandbox");
    }
    // The same command inside the sandbox is read-only and allowed as before.
    expect((await decision(made, { command: "ls" }, {})).behavior).toBe("allow");
  });

  it("keeps a deny rule's deny", async () => {
    const made = session({ enabled: true });
    const result = await decision(
      made,
      { command: "rm -rf x", dangerouslyDisableSandbox: true },
      { deny: ["Bash(rm:*)"] },
    );
    expect(result.behavior).toBe("deny");
  });

  it("is refused, not asked, when the settings forbid unsandboxed commands", async () => {
    const made = session({ enabled: true, allowUnsandboxedCommands: false });
    const refused = await made.run("Bash", { command: "echo ran", dangerouslyDisableSandbox: true });
    expect(refused.is_error).toBe(true);
    expect(text(refused)).toContain("allowUnsandboxedCommands: false");
    expect(text(refused)).not.toContain("ran\n");
  });

  it("changes nothing when the sandbox is off", async () => {
    const made = session({ enabled: false });
    const result = await decision(made, { command: "ls", dangerouslyDisableSandbox: true }, { allow: ["Bash"] });
    expect(result.behavior).toBe("allow");
  });
});
