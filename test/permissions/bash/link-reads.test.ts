// Reads that leave the project through a symbolic link the command never names: a glob expanding
// through a link (`cat */s.txt`), and recursive reads that follow links (`grep -R`, `rg -L`,
// `find -L`, `ls -RL`), and a lister's names fed to a reader (`ls | xargs cat`). Each is first run in
// real bash to show it does reach the outside file.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkBashCommandPermission } from "../../../src/permissions/bash/check.js";
import type { PermissionMode } from "../../../src/tool/permission-types.js";

const outside = mkdtempSync(join(tmpdir(), "warden-link-outside-"));
writeFileSync(join(outside, "s.txt"), "outside-secret\n");
const project = mkdtempSync(join(tmpdir(), "warden-link-project-"));
mkdirSync(join(project, "src"));
writeFileSync(join(project, "src", "a.txt"), "inside\n");
// A repository can ship this link: it is checked out as is.
symlinkSync(outside, join(project, "docs"));
symlinkSync(join(outside, "s.txt"), join(project, "notes.txt"));

/** Links only inside: the same commands stay allowed. */
const clean = mkdtempSync(join(tmpdir(), "warden-link-clean-"));
mkdirSync(join(clean, "src"));
writeFileSync(join(clean, "src", "a.txt"), "inside\n");
symlinkSync(join(clean, "src"), join(clean, "alias"));

async function outcome(command: string, root = project, mode: PermissionMode = "default"): Promise<string> {
  const result = await checkBashCommandPermission({
    command,
    cwd: root,
    permissionContext: {
      mode,
      workingDirectories: [root],
      rules: { allow: [], deny: [], ask: [] },
      isBypassPermissionsModeAvailable: false,
    },
  });
  return result.behavior === "passthrough" ? "ask" : result.behavior;
}

function bashPrints(command: string): string {
  return spawnSync("bash", ["-c", command], { cwd: project, encoding: "utf8" }).stdout;
}

describe("reads through a link the command does not name", () => {
  it("asks for a glob that expands through a link to outside", async () => {
    expect(bashPrints("cat */s.txt")).toContain("outside-secret");
    expect(bashPrints("cat < d*/s.txt")).toContain("outside-secret");
    for (const command of [
      "cat */s.txt",
      "cat d*/*",
      "head -5 */*",
      "grep secret */*",
      "wc -l ?ocs/s.txt",
      "cat < d*/s.txt",
      "head -1 < */s.txt",
    ])
      expect(await outcome(command), command).toBe("ask");
  });

  it("asks for a recursive read that follows links", async () => {
    expect(bashPrints("grep -R outside-secret .")).toContain("outside-secret");
    for (const command of [
      "grep -R outside-secret .",
      "grep -R outside-secret",
      "grep -rn --dereference-recursive x src .",
      "rg -L outside-secret",
      "rg --follow x .",
      "find -L . -name s.txt",
      "find . -follow -name s.txt",
      "ls -RL",
      "ls -R -L .",
      "du -L .",
    ])
      expect(await outcome(command), command).toBe("ask");
  });

  it("asks when a lister's names feed a reader through xargs and a link there leads outside", async () => {
    expect(bashPrints("ls | xargs cat 2>/dev/null")).toContain("outside-secret");
    for (const command of [
      "ls | xargs cat",
      "find . -type l | xargs cat",
      "rg --files | xargs grep x",
      "fd | xargs cat",
    ])
      expect(await outcome(command), command).toBe("ask");
    for (const command of ["ls | xargs cat", "find . -name '*.txt' | xargs wc -l"])
      expect(await outcome(command, clean), command).toBe("allow");
  });

  it("asks in plan mode too, and names where the link leads", async () => {
    expect(await outcome("cat */s.txt", project, "plan")).toBe("ask");
    const result = await checkBashCommandPermission({
      command: "grep -R x .",
      cwd: project,
      permissionContext: {
        mode: "default",
        workingDirectories: [project],
        rules: { allow: [], deny: [], ask: [] },
        isBypassPermissionsModeAvailable: false,
      },
    });
    expect(result.behavior !== "allow" && result.message).toContain(outside.split("/").pop());
  });

  it("asks when the folder a command follows links in is too deep to check whole", async () => {
    // Links only inside as far as the walk looks; past its depth, one could lead anywhere.
    const deep = mkdtempSync(join(tmpdir(), "warden-link-deep-"));
    const bottom = join(deep, ...Array.from({ length: 16 }, (_, i) => `d${i}`));
    mkdirSync(bottom, { recursive: true });
    symlinkSync(outside, join(bottom, "away"));
    expect(spawnSync("bash", ["-c", "grep -R outside-secret ."], { cwd: deep, encoding: "utf8" }).stdout).toContain(
      "outside-secret",
    );
    for (const command of ["grep -R outside-secret .", "rg -L x", "ls | xargs cat"])
      expect(await outcome(command, deep), command).toBe("ask");
    // Not following links, the same folder is read as before.
    expect(await outcome("grep -r outside-secret .", deep)).toBe("allow");
  });

  it("keeps allowing reads whose links stay inside, and reads that do not follow links", async () => {
    expect(bashPrints("grep -r outside-secret .")).toBe("");
    for (const command of ["grep -r outside-secret .", "rg x", "find . -name s.txt", "ls -R", "cat src/*"])
      expect(await outcome(command), command).toBe("allow");
    for (const command of ["cat */a.txt", "grep -R inside .", "rg -L inside", "find -L . -name a.txt", "ls -RL"])
      expect(await outcome(command, clean), command).toBe("allow");
  });
});
