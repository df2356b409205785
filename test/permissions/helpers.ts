// Shared set-up for permission tests: an isolated home, project and policy file in temp dirs,
// contexts built through the real settings loader, and small tools built with buildTool where a
// test needs to control what a tool's own check says.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { loadSettings } from "../../src/config/settings.js";
import { buildPermissionContext, type PermissionCliOptions } from "../../src/permissions/settings/index.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import type { PermissionResult, ToolPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool, ToolUseContext } from "../../src/tool/types.js";

export function tempDir(prefix = "warden-perm-"): string {
  // realpath: on some systems the temp dir itself is reached through a symlink.
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export interface Sandbox {
  home: string;
  project: string;
  policyFile: string;
}

/** A private HOME, WARDEN_HOME and managed-policy path for this test file's process. */
export function isolateEnvironment(): Sandbox {
  const base = tempDir();
  const home = join(base, "home");
  const project = join(base, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const policyFile = join(base, "policy", "managed-settings.json");
  process.env.HOME = home;
  process.env.WARDEN_HOME = join(home, ".warden");
  process.env.WARDEN_MANAGED_SETTINGS = policyFile;
  return { home, project, policyFile };
}

export function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
  return path;
}

/**
 * The context a session in `cwd` gets, with the folder trusted (`--trust-project`): these tests are
 * about what settings files say; what an untrusted folder loses is tested in test/config/trust/.
 */
export function contextFor(cwd: string, cli: PermissionCliOptions = {}): ToolPermissionContext {
  return buildPermissionContext({ cwd, settings: loadSettings({ cwd, trustProject: true }), cli }).context;
}

export function toolContext(
  cwd: string,
  permissionContext: ToolPermissionContext,
  tools: AnyTool[] = [],
): ToolUseContext {
  return createToolUseContext({
    options: { tools, model: "test", cwd, sessionId: "test-session", sessionDir: cwd, isNonInteractive: true },
    appState: { toolPermissionContext: permissionContext },
  });
}

/** A tool whose own check returns exactly what the test says. */
export function scriptedTool(
  name: string,
  result: PermissionResult,
  traits: { readOnly?: boolean; needsHuman?: boolean; autoModeSafe?: boolean } = {},
): AnyTool & { checks: number } {
  const tool = buildTool({
    name,
    inputSchema: z.object({ value: z.string().optional() }),
    prompt: async () => `${name} for tests`,
    isReadOnly: () => traits.readOnly ?? false,
    requiresUserInteraction: () => traits.needsHuman ?? false,
    autoModeSafe: traits.autoModeSafe ?? false,
    toAutoClassifierInput: (input) => `${name} ${input.value ?? ""}`,
    checkPermissions: async () => {
      counted.checks++;
      return result;
    },
    call: async () => ({ data: "ran" }),
  });
  const counted = Object.assign(tool, { checks: 0 });
  return counted;
}
