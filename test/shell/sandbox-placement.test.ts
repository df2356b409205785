// Placement apart from approval, on real bubblewrap: sandbox.excludedCommands runs a program's
// commands outside the sandbox (decided as usual), sandbox.autoAllowBashIfSandboxed lets a
// sandboxed command that only lacks an allow rule run without asking.
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseSandboxSettings, probeBubblewrap, resolveSandboxSettings } from "../../src/shell/sandbox/index.js";
import type { PermissionRule } from "../../src/tool/permission-types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import { createSession, type Session, text } from "../tools/bash/harness.js";

const availability = await probeBubblewrap();
const skipReason = availability.available ? undefined : availability.reason;
const outside = realpathSync(mkdtempSync(join(tmpdir(), "warden-placement-")));
const sessions: Session[] = [];

function sandboxed(settings: Record<string, unknown>, ask: PermissionRule[] = []): Session {
  const session = createSession({ sandboxSettings: parseSandboxSettings({ enabled: true, ...settings }) });
  session.context.setAppState((state) => ({
    ...state,
    toolPermissionContext: {
      ...state.toolPermissionContext,
      rules: { ...state.toolPermissionContext.rules, ask },
    },
  }));
  sessions.push(session);
  return session;
}

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.cleanup();
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe("sandbox placement settings", () => {
  it("reads excludedCommands as program names, ignoring longer prefixes; autoAllow is off unless set", () => {
    const settings = resolveSandboxSettings({
      sandboxSettings: parseSandboxSettings({ excludedCommands: ["docker", "git:*", "make *", "npm run test", 3] }),
    });
    expect(settings.excludedCommands).toEqual(["docker", "git", "make"]);
    expect(settings.autoAllowBashIfSandboxed).toBe(false);
  });
});

describe.skipIf(skipReason !== undefined)(`sandbox placement${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  it("autoAllowBashIfSandboxed: a sandboxed command no rule allows runs without asking", async () => {
    const command = `touch '${join(outside, "auto.txt")}'`;
    const plain = sandboxed({});
    expect((await BashTool.checkPermissions({ command }, plain.context)).behavior).toBe("passthrough");
    const auto = sandboxed({ autoAllowBashIfSandboxed: true });
    const allowed = await BashTool.checkPermissions({ command }, auto.context);
    expect(allowed.behavior).toBe("allow");
    expect(allowed.decisionReason).toMatchObject({ reason: expect.stringContaining("autoAllowBashIfSandboxed") });
    // Still held by the sandbox: the write outside the working directories fails.
    const ran = await auto.run("Bash", { command });
    expect(ran.is_error).toBe(true);
    expect(existsSync(join(outside, "auto.txt"))).toBe(false);
  });

  it("autoAllowBashIfSandboxed settles nothing else: ask rules, unsandboxed runs and safety checks still ask", async () => {
    const askTouch: PermissionRule = {
      source: "userSettings",
      behavior: "ask",
      value: { toolName: "Bash", ruleContent: "touch:*" },
    };
    const auto = sandboxed({ autoAllowBashIfSandboxed: true }, [askTouch]);
    expect((await BashTool.checkPermissions({ command: "touch x" }, auto.context)).behavior).toBe("ask");
    const free = sandboxed({ autoAllowBashIfSandboxed: true });
    const outsideRun = await BashTool.checkPermissions(
      { command: "touch x", dangerouslyDisableSandbox: true },
      free.context,
    );
    expect(outsideRun.behavior).toBe("ask");
    const protectedWrite = await BashTool.checkPermissions({ command: "echo x > .git/hooks/pre-commit" }, free.context);
    expect(protectedWrite.behavior).toBe("ask");
  });

  it("excludedCommands: the program's commands run outside the sandbox and are not auto-allowed", async () => {
    const target = join(outside, "excluded.txt");
    const session = sandboxed({ excludedCommands: ["touch:*"], autoAllowBashIfSandboxed: true });
    expect((await BashTool.checkPermissions({ command: `touch '${target}'` }, session.context)).behavior).toBe(
      "passthrough",
    );
    const ran = await session.run("Bash", { command: `touch '${target}'` });
    expect(existsSync(target)).toBe(true);
    expect(text(ran)).toContain("ran outside the sandbox (sandbox.excludedCommands)");

    // Another program stays in the sandbox.
    const other = join(outside, "other.txt");
    const boxed = await session.run("Bash", { command: `cp '${target}' '${other}'` });
    expect(boxed.is_error).toBe(true);
    expect(existsSync(other)).toBe(false);
  });
});
