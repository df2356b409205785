// The SDK's update_settings: settings written to the project's local file
// (.warden/settings.local.json) or the user's (~/.warden/settings.json), and put in force in the
// running session. Only `permissions` can be written this way (Warden has neither the output
// styles nor the effort levels Claude Code writes here); any other key refuses the request before
// anything is written. In a folder the user has not trusted, a change may only restrict, as with
// apply_flag_settings: one that would widen is refused whole, naming what it would widen.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { keepLocalSettingsOutOfGit } from "../../config/local-settings-git.js";
import { userHome } from "../../config/paths.js";
import {
  localSettingsPath,
  readSettingsFile,
  type SettingsSourceName,
  userSettingsPath,
} from "../../config/settings.js";
import { readSettingsObjectForUpdate } from "../../config/settings-object.js";
import { splitProjectSettings } from "../../config/trust/split.js";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { withFileLockSync } from "../../fs/file-lock.js";
import { mergeRules, rulesFromSettingsFile } from "../../permissions/rules/index.js";
import type { JsonObject } from "./channel.js";
import { folderTrusted } from "./flag-settings.js";
import type { StreamState } from "./stream-state.js";

const WRITABLE_KEYS = new Set(["permissions"]);
const RULE_LISTS = ["allow", "deny", "ask"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function updateSettings(request: JsonObject, state: StreamState): JsonObject {
  const source = request.source;
  if (source !== "localSettings" && source !== "userSettings") {
    throw new Error(`update_settings: source must be localSettings or userSettings, not ${JSON.stringify(source)}`);
  }
  const changes = request.settings;
  if (!isRecord(changes)) throw new Error("update_settings: settings must be an object");
  const unsupported = Object.keys(changes).filter((key) => !WRITABLE_KEYS.has(key));
  if (unsupported.length > 0) {
    throw new Error(
      `update_settings: Warden writes only ${[...WRITABLE_KEYS].join(", ")} here; nothing was written (not supported: ${unsupported.join(", ")})`,
    );
  }
  const permissions = changes.permissions;
  if (permissions !== undefined && !isRecord(permissions)) {
    throw new Error("update_settings: permissions must be an object; nothing was written");
  }
  const { built } = state;
  const context = built.session.getAppState().toolPermissionContext;
  if (!folderTrusted(built)) {
    const held = Object.keys(splitProjectSettings(changes, context.mode).widening.permissions ?? {});
    if (held.length > 0) {
      throw new Error(
        `update_settings: ${built.plan.permissions.settings.workspaceTrust.folder} is not trusted, so settings may only restrict; nothing was written (would widen: ${held.map((key) => `permissions.${key}`).join(", ")}). Trust the folder first (\`warden trust\`, or --trust-project for one run).`,
      );
    }
  }
  const cwd = built.plan.config.cwd;
  const path = source === "localSettings" ? localSettingsPath(cwd) : userSettingsPath();
  const root = source === "localSettings" ? cwd : userHome();
  mkdirSync(dirname(path), { recursive: true });
  const written = withFileLockSync(`${path}.lock`, () => {
    const current = readSettingsObjectForUpdate(path);
    const next = { ...current, permissions: { ...(isRecord(current.permissions) ? current.permissions : {}) } };
    Object.assign(next.permissions, permissions ?? {});
    // Checked as the session would read it before it replaces the file: a bad rule writes nothing.
    const check = readSettingsFile({ source, path, root, inline: JSON.stringify(next) }, true);
    const problems = [...check.errors, ...check.warnings];
    if (problems.length > 0 || !check.file) {
      throw new Error(`update_settings: nothing was written: ${problems.map((p) => p.message).join("; ")}`);
    }
    const parsed = rulesFromSettingsFile({ ...check.file, path });
    if (parsed.issues.length > 0) {
      throw new Error(`update_settings: nothing was written: ${parsed.issues.map((i) => i.message).join("; ")}`);
    }
    writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(next, null, 2)}\n`, "utf8"));
    return parsed.rules;
  });
  if (source === "localSettings") keepLocalSettingsOutOfGit(path);
  applyFileRules(state, source, path, written);
  return {};
}

/**
 * The file's rules replace those the session holds from it. In a folder not yet trusted only the
 * local file's deny and ask rules count, as when the session started.
 */
function applyFileRules(
  state: StreamState,
  source: SettingsSourceName,
  path: string,
  rules: ReturnType<typeof rulesFromSettingsFile>["rules"],
): void {
  const { built } = state;
  const untrustedLocal = source === "localSettings" && !folderTrusted(built);
  const added = untrustedLocal ? { ...rules, allow: [] } : rules;
  built.commands.updatePermissions((context) => {
    const fromOthers = (behavior: (typeof RULE_LISTS)[number]) =>
      context.rules[behavior].filter((rule) => rule.file !== path);
    const kept = { allow: fromOthers("allow"), deny: fromOthers("deny"), ask: fromOthers("ask") };
    // Under allowManagedPermissionRulesOnly only the policy's rules count.
    const next = context.managedRulesOnly ? kept : mergeRules(kept, added);
    return { ...context, rules: next };
  });
}
