// PowerShell reads that leave the project through a symbolic link the script never names: a
// wildcard path expanding through a link, a reader fed the files Get-ChildItem lists, and
// -FollowSymlink listings; and wildcard writes into protected places. The same scripts stay
// allowed where every link stays inside.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPowerShellPermission } from "../../../src/permissions/powershell/index.js";

const outside = mkdtempSync(join(tmpdir(), "warden-pslink-outside-"));
writeFileSync(join(outside, "s.txt"), "outside-secret\n");
const project = mkdtempSync(join(tmpdir(), "warden-pslink-project-"));
mkdirSync(join(project, "src"));
writeFileSync(join(project, "src", "a.txt"), "inside\n");
symlinkSync(outside, join(project, "docs"));
symlinkSync(join(outside, "s.txt"), join(project, "notes.txt"));

const clean = mkdtempSync(join(tmpdir(), "warden-pslink-clean-"));
mkdirSync(join(clean, "src"));
writeFileSync(join(clean, "src", "a.txt"), "inside\n");
symlinkSync(join(clean, "src"), join(clean, "alias"));

async function outcome(command: string, root = project): Promise<string> {
  const result = await checkPowerShellPermission({
    command,
    cwd: root,
    permissionContext: {
      mode: "default",
      workingDirectories: [root],
      rules: { allow: [], deny: [], ask: [] },
      isBypassPermissionsModeAvailable: false,
    },
  });
  return result.behavior === "passthrough" ? "ask" : result.behavior;
}

const throughLinks = [
  "Get-Content */s.txt",
  "gc d*/*",
  "Select-String -Path */* -Pattern secret",
  "Get-ChildItem | Get-Content",
  "gci | gc -Encoding utf8",
  "Get-ChildItem -Recurse | Select-String secret",
  "gci -File | Get-FileHash",
  "Get-ChildItem -Recurse -FollowSymlink",
];

describe("PowerShell reads through a link the script does not name", () => {
  it("asks when the link leads outside the working directories", async () => {
    for (const command of throughLinks) expect(await outcome(command), command).toBe("ask");
  });

  it("allows the same scripts where every link stays inside, and listings that do not follow links", async () => {
    for (const command of throughLinks) expect(await outcome(command, clean), command).toBe("allow");
    for (const command of ["Get-ChildItem", "Get-ChildItem -Recurse", "Get-Content src/*", "gc -Path src/a.txt -Raw"])
      expect(await outcome(command), command).toBe("allow");
  });
});

describe("PowerShell wildcard writes into protected places", () => {
  it("ask even in bypass mode when a wildcard matches the repository's internals", async () => {
    const root = mkdtempSync(join(tmpdir(), "warden-pswild-"));
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    mkdirSync(join(root, "src"));
    const decide = (command: string) =>
      checkPowerShellPermission({
        command,
        cwd: root,
        permissionContext: {
          mode: "bypassPermissions",
          workingDirectories: [root],
          rules: { allow: [], deny: [], ask: [] },
          isBypassPermissionsModeAvailable: true,
        },
      });
    for (const command of [
      "Set-Content .g?t/config x",
      "Add-Content .gi*\\config x",
      "Copy-Item x .g[i]t/hooks/pre-commit",
      "Clear-Content .g*/config",
    ]) {
      const result = await decide(command);
      expect(result.behavior, command).toBe("ask");
      expect(result.decisionReason?.type, command).toBe("safetyCheck");
    }
    expect((await decide("Set-Content src/*.txt x")).behavior).not.toBe("ask");
  });
});
