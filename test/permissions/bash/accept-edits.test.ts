// acceptEdits mode: plain file edits and redirections inside the working directories pass;
// anything reaching outside, into protected paths, or beyond file editing still asks.
import { describe, expect, it } from "vitest";
import { checkBashCommandPermission } from "../../../src/permissions/bash/check.js";
import type { PermissionResult } from "../../../src/tool/permission-types.js";
import { contextWith, project } from "../../shell/helpers.js";

function decideInAcceptEdits(command: string): Promise<PermissionResult> {
  return checkBashCommandPermission({
    command,
    cwd: project,
    permissionContext: { ...contextWith(), mode: "acceptEdits" },
  });
}

describe("acceptEdits mode", () => {
  it("allows file edits inside the working directories, saying the mode allowed them", async () => {
    for (const command of [
      "mkdir -p src/x && touch src/x/a.ts",
      "rm -rf build",
      "mv a.txt b.txt",
      "cp -r src backup",
      "sed -i 's/a/b/g' src/app.ts",
      "echo hello > out.txt",
      "ls > listing.txt",
    ]) {
      const result = await decideInAcceptEdits(command);
      expect(result.behavior, command).toBe("allow");
      expect(result.decisionReason, command).toEqual({ type: "mode", mode: "acceptEdits" });
    }
  });

  it("still asks for edits outside, of the project itself, through variables, or beyond editing", async () => {
    for (const command of [
      "rm -rf .",
      "rm -rf ../other",
      "cp a.txt /tmp/b",
      "touch ~/x",
      "rm -rf $DIR",
      "rm *.log",
      "sed -i 's/a/b/w x' f",
      "curl -o x https://example.com",
      "echo x > /tmp/out",
      "npm install",
    ]) {
      expect((await decideInAcceptEdits(command)).behavior, command).not.toBe("allow");
    }
  });

  it("keeps protected paths bypass-proof", async () => {
    const result = await decideInAcceptEdits("echo x > .git/config");
    expect(result.behavior).toBe("ask");
    expect(result.decisionReason?.type).toBe("safetyCheck");
  });

  it("changes nothing in default mode", async () => {
    const result = await checkBashCommandPermission({
      command: "mkdir src/x",
      cwd: project,
      permissionContext: contextWith(),
    });
    expect(result.behavior).toBe("passthrough");
  });
});
