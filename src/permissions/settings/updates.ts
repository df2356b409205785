// "Yes, and don't ask again for X": a PermissionUpdate applied to the live permission context at
// once, and written to the chosen settings file so later sessions keep it. Writes are atomic (a
// temp file in the same folder, fsync, rename) and rules are deduplicated by their normal form.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { keepLocalSettingsOutOfGit } from "../../config/local-settings-git.js";
import { userHome } from "../../config/paths.js";
import { localSettingsPath, projectSettingsPath, userSettingsPath } from "../../config/settings.js";
import { readSettingsObjectForUpdate } from "../../config/settings-object.js";
import { keepTrustAcrossOwnWrite } from "../../config/workspace-trust.js";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { withFileLockSync } from "../../fs/file-lock.js";
import type {
  PermissionBehavior,
  PermissionRule,
  PermissionRuleSource,
  PermissionUpdate,
  PermissionUpdateDestination,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import { formatRule, mergeRules, normalizeRule } from "../rules/index.js";

export function settingsPathFor(destination: PermissionUpdateDestination, cwd: string): string | undefined {
  switch (destination) {
    case "userSettings":
      return userSettingsPath();
    case "projectSettings":
      return projectSettingsPath(cwd);
    case "localSettings":
      return localSettingsPath(cwd);
    case "session":
      return undefined;
  }
}

/** The live context with the update in force (no file is touched). */
export function applyPermissionUpdate(
  context: ToolPermissionContext,
  update: PermissionUpdate,
  cwd: string,
): ToolPermissionContext {
  switch (update.type) {
    case "addRules": {
      // Under allowManagedPermissionRulesOnly only the policy's rules count; a user's answer cannot add one.
      if (context.managedRulesOnly) return context;
      const source: PermissionRuleSource = update.destination === "session" ? "session" : update.destination;
      const file = settingsPathFor(update.destination, cwd);
      const root = update.destination === "userSettings" ? userHome() : resolve(cwd);
      const existing = new Set(context.rules[update.behavior].map((r) => formatRule(r.value)));
      const added: PermissionRule[] = [];
      for (const value of update.rules) {
        const text = formatRule(value);
        if (existing.has(text)) continue;
        existing.add(text);
        added.push({ source, behavior: update.behavior, value, file, root });
      }
      if (added.length === 0) return context;
      const extra = { allow: [], deny: [], ask: [], [update.behavior]: added };
      return { ...context, rules: mergeRules(context.rules, extra) };
    }
    case "addDirectories": {
      const dirs = update.directories.map((d) => resolve(cwd, d));
      return { ...context, workingDirectories: [...new Set([...context.workingDirectories, ...dirs])] };
    }
    case "setMode": {
      if (update.mode === "bypassPermissions" && !context.isBypassPermissionsModeAvailable) return context;
      return { ...context, mode: update.mode };
    }
  }
}

export function applyPermissionUpdates(
  context: ToolPermissionContext,
  updates: readonly PermissionUpdate[],
  cwd: string,
): ToolPermissionContext {
  return updates.reduce((ctx, update) => applyPermissionUpdate(ctx, update, cwd), context);
}

/**
 * Writes the update into its settings file. Session updates live only in memory. A file that is
 * not valid JSON is left alone (an error is thrown): overwriting it would lose what it held.
 */
export function persistPermissionUpdate(update: PermissionUpdate, cwd: string): string | undefined {
  const path = settingsPathFor(update.destination, cwd);
  if (path === undefined) return undefined;
  // Two sessions answering at once must not each write back what they read and lose the other's rule.
  const write = () => withFileLockSync(`${path}.lock`, () => writeUpdate(path, update));
  // A rule the user saves into the folder's own files is theirs: a trusted folder stays trusted.
  if (update.destination === "localSettings" || update.destination === "projectSettings") {
    keepTrustAcrossOwnWrite(cwd, write);
  } else {
    write();
  }
  if (update.destination === "localSettings") keepLocalSettingsOutOfGit(path);
  return path;
}

/**
 * Sets (or, with `undefined`, removes) one user-facing setting in the user's settings file: a
 * dotted key (`permissions.defaultMode`) names a field of an object. Same lock and atomic write as
 * the answers above; a file that is not valid JSON is left alone. Returns the file written.
 */
export function persistUserSetting(key: string, value: unknown): string {
  const path = userSettingsPath();
  const parts = key.split(".");
  withFileLockSync(`${path}.lock`, () => {
    const settings = readSettingsObjectForUpdate(path);
    let holder = settings;
    for (const part of parts.slice(0, -1)) holder = objectField(holder, part, path);
    const last = parts[parts.length - 1] as string;
    if (value === undefined) delete holder[last];
    else holder[last] = value;
    writeFileAtomic(path, `${JSON.stringify(settings, null, 2)}\n`);
  });
  return path;
}

/**
 * Adds one string to a list setting of the user's settings file (`mcpSamplingServers`), read and
 * written under the file's lock so two sessions adding at once both keep theirs. Returns the file.
 */
export function addToUserSettingList(key: string, item: string): string {
  const path = userSettingsPath();
  withFileLockSync(`${path}.lock`, () => {
    const settings = readSettingsObjectForUpdate(path);
    const list = settings[key] === undefined ? [] : settings[key];
    if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
      throw new Error(`${path}: ${key} is not a list of strings; not changing it`);
    }
    if (list.includes(item)) return;
    settings[key] = [...list, item];
    writeFileAtomic(path, `${JSON.stringify(settings, null, 2)}\n`);
  });
  return path;
}

function writeUpdate(path: string, update: PermissionUpdate): void {
  const settings = readSettingsObjectForUpdate(path);
  const permissions = objectField(settings, "permissions", path);
  switch (update.type) {
    case "addRules":
      permissions[update.behavior] = withRules(permissions[update.behavior], update.behavior, update.rules, path);
      break;
    case "addDirectories":
      permissions.additionalDirectories = [
        ...new Set([
          ...stringList(permissions.additionalDirectories, "additionalDirectories", path),
          ...update.directories,
        ]),
      ];
      break;
    case "setMode":
      if (update.mode === "bypassPermissions") throw new Error("bypassPermissions cannot be saved as a default mode");
      permissions.defaultMode = update.mode;
      break;
  }
  writeFileAtomic(path, `${JSON.stringify(settings, null, 2)}\n`);
}

function withRules(
  current: unknown,
  behavior: PermissionBehavior,
  rules: readonly { toolName: string; ruleContent?: string }[],
  path: string,
): string[] {
  const list = stringList(current, behavior, path);
  const seen = new Set(list.map((r) => normalizeRule(r) ?? r));
  for (const rule of rules) {
    const text = normalizeRule(formatRule(rule)) ?? formatRule(rule);
    if (seen.has(text)) continue;
    seen.add(text);
    list.push(text);
  }
  return list;
}

function objectField(holder: Record<string, unknown>, key: string, path: string): Record<string, unknown> {
  const value = holder[key];
  if (value === undefined) {
    const created: Record<string, unknown> = {};
    holder[key] = created;
    return created;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${path}: ${key} is not an object; not changing it`);
  }
  return value as Record<string, unknown>;
}

function stringList(value: unknown, name: string, path: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new Error(`${path}: permissions.${name} is not a list of strings; not changing it`);
  }
  return [...(value as string[])];
}

/** Settings files are replaced whole and atomically: a reader (another session) sees old or new. */
function writeFileAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, Buffer.from(content, "utf8"));
}
