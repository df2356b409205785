// Everything a session needs from settings, read once at start: the permission context, the hooks
// and the sandbox settings. Throws (SettingsError, PermissionConfigError) when the session must
// not start; the message names the file and the problem.

import { mergeHooks, pluginHooks } from "../../config/plugins/components.js";
import { formatSettingsIssue, type LoadedSettings, loadSettings, settingsEnv } from "../../config/settings.js";
import { untrustedNotice } from "../../config/trust/index.js";
import { hooksFromSettings } from "../../hooks/hook-matchers.js";
import { HookRunner } from "../../hooks/hook-runner.js";
import { parseSandboxSettings, type SandboxSettings } from "../../shell/sandbox/index.js";
import type { AppState } from "../../tool/app-state.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { hookConditionHolds } from "../rules/hook-condition.js";
import { buildPermissionContext, type PermissionCliOptions } from "./context-builder.js";

export interface SessionPermissionsOptions {
  cwd: string;
  cli?: PermissionCliOptions;
  /** `--settings` values (file paths or inline JSON). */
  extraSettings?: string[];
  /** `--trust-project`: the folder's own settings apply whole for this run. */
  trustProject?: boolean;
  /** `--setting-sources`: the user, project and local files to read (all when absent). */
  sources?: ReadonlyArray<"user" | "project" | "local">;
  /** `--plugin-dir`: plugin folders for this session only. */
  pluginDirs?: readonly string[];
}

export interface SessionPermissions {
  settings: LoadedSettings;
  permissionContext: ToolPermissionContext;
  hooks?: HookRunner;
  sandboxSettings: SandboxSettings;
  /** Problems that cost only the part they were in, as lines for stderr. */
  warnings: string[];
  /**
   * Set when the folder is not trusted and some of its settings were ignored: what, and how to
   * trust it. Said once per session (stderr, and the stream-json init line).
   */
  trustNotice?: string;
  /** AppState fields to start the session with. */
  appState: Partial<AppState>;
}

export function loadSessionPermissions(options: SessionPermissionsOptions): SessionPermissions {
  const settings = loadSettings({
    cwd: options.cwd,
    extraSettings: options.extraSettings,
    trustProject: options.trustProject,
    sources: options.sources,
    pluginDirs: options.pluginDirs,
  });
  const built = buildPermissionContext({ cwd: options.cwd, settings, cli: options.cli });
  const pluginWarnings = [...(settings.plugins?.warnings ?? [])];
  // Plugins' hooks run beside the settings' own, through the same runner (src/plugins/components.ts).
  const hooksConfig = settings.plugins
    ? mergeHooks(hooksFromSettings(settings), ...settings.plugins.plugins.map((p) => pluginHooks(p, pluginWarnings)))
    : hooksFromSettings(settings);
  // The files in force only: an untrusted folder's `env` waits for trust like its other widening keys.
  const env = settingsEnv(settings.files);
  // Always a runner, even with no hooks in settings: an agent's frontmatter hooks join it for its run.
  const hooks = new HookRunner({
    config: hooksConfig,
    cwd: options.cwd,
    sessionId: "",
    env,
    conditionHolds: hookConditionHolds,
  });
  // Higher-precedence files override lower ones field by field (the policy file comes last).
  const sandboxSettings: SandboxSettings = {};
  for (const file of settings.files) {
    if (file.settings.sandbox === undefined) continue;
    const parsed = parseSandboxSettings(file.settings.sandbox);
    // Deny lists add up: a later file must not drop a host an earlier one refused.
    const denied = [...(sandboxSettings.deniedDomains ?? []), ...(parsed.deniedDomains ?? [])];
    Object.assign(sandboxSettings, parsed);
    if (denied.length) sandboxSettings.deniedDomains = [...new Set(denied)];
  }
  const appState: Partial<AppState> = { sandboxSettings };
  if (Object.keys(env).length > 0) appState.toolEnv = env;
  if (hooks) {
    appState.hooks = hooks;
    appState.compactHooks = hooks;
  }
  const trust = settings.workspaceTrust;
  const ignoredSomething = trust.status === "untrusted" && trust.widening.some((w) => w.known);
  return {
    settings,
    permissionContext: built.context,
    hooks,
    sandboxSettings,
    warnings: [...[...settings.warnings, ...built.warnings].map(formatSettingsIssue), ...pluginWarnings],
    trustNotice: ignoredSomething ? untrustedNotice(trust) : undefined,
    appState,
  };
}
