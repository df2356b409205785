// Edit permission rules in the sandbox (real bubblewrap): a folder an Edit allow rule names is
// writable to sandboxed commands though it is no working folder, and a file an Edit deny rule names
// stays read-only inside a writable working folder. Glob rules and the root are never mounts.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { editAllowedPaths, editDeniedPaths } from "../../src/shell/sandbox/edit-rules.js";
import { parseSandboxSettings, probeBubblewrap } from "../../src/shell/sandbox/index.js";
import type { PermissionBehavior, PermissionRule } from "../../src/tool/permission-types.js";
import { createSession, type Session, text } from "../tools/bash/harness.js";

const availability = await probeBubblewrap();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function rule(behavior: PermissionBehavior, toolName: string, content: string): PermissionRule {
  return { source: "userSettings", behavior, value: { toolName, ruleContent: content } };
}

function outsideFolder(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "warden-edit-rule-")));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("Edit rules as sandbox paths", () => {
  it("takes literal paths of the writing tools' rules, never globs, files, the root or the home folder", () => {
    const dir = outsideFolder();
    writeFileSync(join(dir, "file.txt"), "");
    const allow = [
      rule("allow", "Edit", `/${dir}/**`),
      rule("allow", "Edit", "*.ts"),
      rule("allow", "Edit", "//**"),
      rule("allow", "Edit", "~/**"),
      rule("allow", "Read", `/${dir}/**`),
      rule("allow", "Edit", `/${dir}/missing/**`),
      rule("allow", "Edit", `/${dir}/file.txt`),
    ];
    expect(editAllowedPaths(allow, "/p")).toEqual([dir]);
    const deny = [rule("deny", "Write", "./locked.txt"), rule("deny", "Edit", "src/*.ts"), rule("deny", "Bash", "x")];
    expect(editDeniedPaths(deny, "/p")).toEqual(["/p/locked.txt"]);
  });
});

describe.skipIf(!availability.available)(
  `sandbox: Edit rules${availability.available ? "" : ` (skipped: ${availability.reason})`}`,
  () => {
    function sandboxed(allow: PermissionRule[], deny: PermissionRule[]): Session {
      const session = createSession({ sandboxSettings: parseSandboxSettings({ enabled: true }) });
      session.context.setAppState((state) => ({
        ...state,
        toolPermissionContext: { ...state.toolPermissionContext, rules: { allow, deny, ask: [] } },
      }));
      cleanups.push(() => session.cleanup());
      return session;
    }

    it("lets a command write a folder only an Edit allow rule names", async () => {
      const dir = outsideFolder();
      const without = sandboxed([], []);
      const refused = await without.run("Bash", { command: `echo one > ${dir}/note.txt` });
      expect(refused.is_error).toBe(true);
      expect(text(refused)).toContain("Read-only file system");

      const session = sandboxed([rule("allow", "Edit", `/${dir}/**`)], []);
      const written = await session.run("Bash", { command: `echo two > ${dir}/note.txt` });
      expect(written.is_error).toBeFalsy();
      expect(readFileSync(join(dir, "note.txt"), "utf8")).toBe("two\n");
    });

    it("keeps a file an Edit deny rule names read-only inside the working folder, the allow rule notwithstanding", async () => {
      const session = sandboxed([rule("allow", "Edit", "./**")], [rule("deny", "Edit", "./locked.txt")]);
      writeFileSync(join(session.project, "locked.txt"), "original\n");
      const refused = await session.run("Bash", { command: "echo changed > locked.txt" });
      expect(refused.is_error).toBe(true);
      expect(readFileSync(join(session.project, "locked.txt"), "utf8")).toBe("original\n");
      const other = await session.run("Bash", { command: "echo fine > other.txt && cat other.txt" });
      expect(text(other)).toBe("fine");
    });
  },
);
