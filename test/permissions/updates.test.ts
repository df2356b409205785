// "Don't ask again" written to settings files: atomic, deduplicated, other content kept, broken
// files left alone, and live in the context at once.
import { spawn } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../../src/config/settings.js";
import {
  applyPermissionUpdate,
  buildPermissionContext,
  persistPermissionUpdate,
} from "../../src/permissions/settings/index.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { builtFixture } from "../helpers/built.js";
import { isolateEnvironment, tempDir, writeJson } from "./helpers.js";

const env = isolateEnvironment();
const root = fileURLToPath(new URL("../..", import.meta.url));

describe("persisting permission updates", () => {
  it("adds rules to the chosen file, once, keeping what the file already held", () => {
    const cwd = tempDir();
    const path = writeJson(join(cwd, ".warden", "settings.json"), {
      model: "anthropic:x",
      permissions: { allow: ["Bash(npm run:*)"], deny: ["WebFetch"] },
    });
    chmodSync(path, 0o640);
    persistPermissionUpdate(
      {
        type: "addRules",
        behavior: "allow",
        rules: [
          { toolName: "Bash", ruleContent: "npm run:*" },
          { toolName: "Bash", ruleContent: "git commit:*" },
        ],
        destination: "projectSettings",
      },
      cwd,
    );
    persistPermissionUpdate(
      {
        type: "addRules",
        behavior: "allow",
        rules: [{ toolName: "Bash", ruleContent: " git commit:* " }],
        destination: "projectSettings",
      },
      cwd,
    );
    const saved = JSON.parse(readFileSync(path, "utf8"));
    expect(saved).toEqual({
      model: "anthropic:x",
      permissions: { allow: ["Bash(npm run:*)", "Bash(git commit:*)"], deny: ["WebFetch"] },
    });
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(cwd, ".warden")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("writes user answers under WARDEN_HOME and folders as additionalDirectories", () => {
    const cwd = tempDir();
    const extra = tempDir();
    const path = persistPermissionUpdate(
      { type: "addDirectories", directories: [extra], destination: "userSettings" },
      cwd,
    );
    expect(path).toBe(join(env.home, ".warden", "settings.json"));
    persistPermissionUpdate({ type: "addDirectories", directories: [extra], destination: "userSettings" }, cwd);
    expect(JSON.parse(readFileSync(path!, "utf8")).permissions.additionalDirectories).toEqual([extra]);
    expect(buildPermissionContext({ cwd, settings: loadSettings({ cwd }) }).context.workingDirectories).toContain(
      extra,
    );
    writeFileSync(path!, "{}");
  });

  it("loses no answer when several processes save to the same file at once", async () => {
    const cwd = tempDir();
    const writer = builtFixture("permissions/fixtures/settings-writer.ts");
    const writers = [1, 2, 3, 4].map(
      (who) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, [writer, cwd, String(who)], {
            cwd: root,
            stdio: "inherit",
          });
          child.on("close", resolve);
        }),
    );
    expect(await Promise.all(writers)).toEqual([0, 0, 0, 0]);
    const saved = JSON.parse(readFileSync(join(cwd, ".warden", "settings.local.json"), "utf8")).permissions
      .allow as string[];
    expect(saved).toHaveLength(60);
    expect(new Set(saved).size).toBe(60);
    expect(readdirSync(join(cwd, ".warden")).sort()).toEqual(["settings.local.json"]);
  });

  it("leaves a file that is not valid JSON untouched and says so", () => {
    const cwd = tempDir();
    const path = join(cwd, ".warden", "settings.local.json");
    writeJson(path, '{ "permissions": { "allow": [');
    expect(() =>
      persistPermissionUpdate(
        { type: "addRules", behavior: "allow", rules: [{ toolName: "Read" }], destination: "localSettings" },
        cwd,
      ),
    ).toThrow(/not valid JSON; not changing it/);
    expect(readFileSync(path, "utf8")).toBe('{ "permissions": { "allow": [');
  });

  it("refuses to save bypass as a default mode", () => {
    expect(() =>
      persistPermissionUpdate({ type: "setMode", mode: "bypassPermissions", destination: "localSettings" }, tempDir()),
    ).toThrow();
  });

  it("applies updates to the live context without duplicates; bypass only if it was granted", () => {
    const cwd = tempDir();
    const start = emptyPermissionContext(cwd);
    const once = applyPermissionUpdate(
      start,
      { type: "addRules", behavior: "deny", rules: [{ toolName: "Bash" }], destination: "session" },
      cwd,
    );
    const twice = applyPermissionUpdate(
      once,
      { type: "addRules", behavior: "deny", rules: [{ toolName: "Bash" }], destination: "session" },
      cwd,
    );
    expect(twice.rules.deny).toHaveLength(1);
    expect(
      applyPermissionUpdate(start, { type: "setMode", mode: "bypassPermissions", destination: "session" }, cwd).mode,
    ).toBe("default");
    expect(
      applyPermissionUpdate(start, { type: "setMode", mode: "acceptEdits", destination: "session" }, cwd).mode,
    ).toBe("acceptEdits");
    const managed = { ...start, managedRulesOnly: true };
    expect(
      applyPermissionUpdate(
        managed,
        { type: "addRules", behavior: "allow", rules: [{ toolName: "Bash" }], destination: "session" },
        cwd,
      ),
    ).toBe(managed);
  });
});
