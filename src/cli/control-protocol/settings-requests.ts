// The SDK's questions about settings, hooks and rules, answered from what the session loaded:
// get_settings (every file read, with its source and path, the flag layer of apply_flag_settings,
// and the merge of them all), get_hooks_listing (the settings files' hooks by event, as a /hooks
// menu lists them) and list_permission_rules (the live rules, each with its source, and the
// working folders). update_settings is in settings-update.ts.
import { HOOK_EVENTS, hookEventInfo } from "../../config/hook-events.js";
import { hookText } from "../../hooks/hook-text.js";
import { formatRule, RULE_BEHAVIORS } from "../../permissions/rules/index.js";
import type { PermissionRule } from "../../tool/permission-types.js";
import type { JsonObject } from "./channel.js";
import type { StreamState } from "./stream-state.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The settings in force, as Claude Code merges its sources: objects key by key, lists joined
 * (without repeats), any other value from the highest-precedence source that sets it.
 */
export function mergeSettings(layers: readonly Record<string, unknown>[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) mergeInto(merged, layer);
  return merged;
}

function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (Array.isArray(value) && Array.isArray(existing)) {
      const seen = new Set(existing.map((item) => JSON.stringify(item)));
      target[key] = [...existing, ...value.filter((item) => !seen.has(JSON.stringify(item)))];
    } else if (isRecord(value) && isRecord(existing)) {
      const inner = { ...existing };
      mergeInto(inner, value);
      target[key] = inner;
    } else if (isRecord(value)) {
      const inner: Record<string, unknown> = {};
      mergeInto(inner, value);
      target[key] = inner;
    } else target[key] = value;
  }
}

/** Each source the session read, lowest precedence first, then the flag layer. */
function settingsSources(state: StreamState): Array<{ source: string; path?: string; settings: JsonObject }> {
  const loaded = state.built.plan.permissions.settings;
  const sources: Array<{ source: string; path?: string; settings: JsonObject }> = loaded.files.map((file) => ({
    source: file.source === "cliArg" ? "flagSettings" : file.source,
    ...(file.path !== "--settings" && { path: file.path }),
    settings: file.settings as JsonObject,
  }));
  const flags = state.flagSettings?.settings;
  if (flags && Object.keys(flags).length > 0) sources.push({ source: "flagSettings", settings: flags });
  return sources;
}

function getSettings(state: StreamState): JsonObject {
  const sources = settingsSources(state);
  const loaded = state.built.plan.permissions.settings;
  const trust = loaded.workspaceTrust;
  return {
    effective: mergeSettings(sources.map((s) => s.settings)),
    sources,
    // A folder not yet trusted: its own files hold only what restricts (the rest waits for trust).
    workspaceTrust: { folder: trust.folder, status: trust.status },
    errors: loaded.warnings.map((issue) => ({ file: issue.file, path: "", message: issue.message })),
  };
}

const SOURCE_LABEL: Record<string, string> = {
  userSettings: "User settings",
  projectSettings: "Project settings",
  localSettings: "Local project settings",
  flagSettings: "Command-line settings (--settings)",
  policySettings: "Managed policy",
};

/** Control characters shown, not obeyed (a hook's text goes on a host's screen). */
function revealed(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function getHooksListing(state: StreamState): JsonObject {
  const loaded = state.built.plan.permissions.settings;
  const hooks: JsonObject[] = [];
  for (const event of HOOK_EVENTS) {
    for (const file of loaded.files) {
      const source = file.source === "cliArg" ? "flagSettings" : file.source;
      for (const matcher of file.settings.hooks?.[event] ?? []) {
        for (const hook of matcher.hooks) {
          hooks.push({
            event,
            matcher: revealed(matcher.matcher ?? ""),
            source,
            sourceLabel: SOURCE_LABEL[source] ?? source,
            type: hook.type,
            displayText: revealed(hookText(hook).split("\n")[0] ?? ""),
            commandText: revealed(hookText(hook)),
            contentLabel: hook.type === "command" ? "Command" : hook.type === "http" ? "URL" : "Prompt",
            ...(hook.timeout !== undefined && { timeout: hook.timeout }),
          });
        }
      }
    }
  }
  const catalog = HOOK_EVENTS.map((name) => ({
    name,
    summary: hookEventInfo(name).summary,
    supportsMatcher: hookEventInfo(name).matcher !== undefined,
  }));
  return {
    events: catalog
      .map((event) => ({ ...event, hookCount: hooks.filter((hook) => hook.event === event.name).length }))
      .filter((event) => event.hookCount > 0),
    hooks,
    eventCatalog: catalog,
    policy: {
      disabledByPolicy: false,
      managedOnly: false,
      pluginOnly: false,
      allDisabled: false,
      policyHookCount: hooks.filter((hook) => hook.source === "policySettings").length,
    },
    errors: loaded.warnings.map((issue) => ({ file: issue.file, path: "", message: issue.message })),
  };
}

/** Where a rule can be changed: a settings file, this session only, or nowhere from here. */
function editability(source: string): "persistent" | "session" | "readonly" {
  if (source === "userSettings" || source === "projectSettings" || source === "localSettings") return "persistent";
  if (source === "cliArg" || source === "session") return "session";
  return "readonly";
}

function listPermissionRules(state: StreamState): JsonObject {
  const { plan, session } = state.built;
  const context = session.getAppState().toolPermissionContext;
  const fromFlags = new Set(state.flagSettings?.rules ?? []);
  const ruleEntry = (rule: PermissionRule) => {
    // Rules of apply_flag_settings are read as command-line settings; the SDK calls that layer flagSettings.
    const source =
      fromFlags.has(rule) || (rule.source === "cliArg" && rule.file === "--settings") ? "flagSettings" : rule.source;
    return {
      behavior: rule.behavior,
      source,
      rule: formatRule(rule.value),
      editability: editability(source),
      ...(rule.file !== undefined && rule.file !== "--settings" && { file: rule.file }),
      ...(rule.line !== undefined && { line: rule.line }),
    };
  };
  const settingsDirs = new Map<string, string>();
  for (const file of plan.permissions.settings.files) {
    for (const dir of file.settings.permissions?.additionalDirectories ?? []) settingsDirs.set(dir, file.source);
  }
  const addDirs = new Set(plan.config.addDirs);
  const flagDirs = new Set(state.flagSettings?.directories ?? []);
  return {
    state: {
      rules: RULE_BEHAVIORS.flatMap((behavior) => context.rules[behavior].map(ruleEntry)),
      workspaceDirectories: context.workingDirectories
        .filter((dir) => dir !== plan.config.cwd)
        .map((path) => ({
          path,
          source: addDirs.has(path)
            ? "cliArg"
            : flagDirs.has(path)
              ? "flagSettings"
              : ([...settingsDirs].find(([dir]) => path.endsWith(dir.replace(/^\.\//, "")))?.[1] ?? "session"),
        })),
      originalCwd: plan.config.cwd,
      managedOnly: context.managedRulesOnly === true,
    },
  };
}

export async function handleSettingsRequest(request: JsonObject, state: StreamState): Promise<JsonObject | undefined> {
  switch (request.subtype) {
    case "get_settings":
      return getSettings(state);
    case "get_hooks_listing":
      return getHooksListing(state);
    case "list_permission_rules":
      return listPermissionRules(state);
    case "update_settings":
      return (await import("./settings-update.js")).updateSettings(request, state);
    default:
      return undefined;
  }
}
