// `/permissions remove RULE`: a rule taken out of the live permission context and, when it was
// read from one of the user's or the project's settings files, out of that file too (under the
// same lock and atomic write as a saved answer). A rule of the managed policy is not the person's
// to remove here; one from the command line or this session ends with the session.

import { readSettingsObjectForUpdate } from "../../config/settings-object.js";
import { keepTrustAcrossOwnWrite } from "../../config/workspace-trust.js";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { withFileLockSync } from "../../fs/file-lock.js";
import type { PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";
import { formatRule, parseRule } from "../rules/index.js";

export type RuleRemoval = { ok: true; file?: string } | { ok: false; reason: string };

const FILE_SOURCES = new Set(["userSettings", "projectSettings", "localSettings"]);

/** Removes `rule` (as listed in the live context) from the settings file it was read from, if any. */
export function removeRuleFromSource(rule: PermissionRule, cwd: string): RuleRemoval {
  if (rule.source === "policySettings") {
    return { ok: false, reason: `it is set by the managed policy${rule.file ? ` (${rule.file})` : ""}` };
  }
  if (!FILE_SOURCES.has(rule.source) || !rule.file) return { ok: true };
  const path = rule.file;
  const write = () => withFileLockSync(`${path}.lock`, () => removeFromFile(path, rule));
  // Editing the folder's own files is the person's own change: a trusted folder stays trusted.
  if (rule.source === "userSettings") write();
  else keepTrustAcrossOwnWrite(cwd, write);
  return { ok: true, file: path };
}

/** The live context without `rule` (the same rule from another source stays). */
export function withoutRule(context: ToolPermissionContext, rule: PermissionRule): ToolPermissionContext {
  const text = formatRule(rule.value);
  const remaining = context.rules[rule.behavior].filter(
    (r) => !(formatRule(r.value) === text && r.source === rule.source && r.file === rule.file),
  );
  return { ...context, rules: { ...context.rules, [rule.behavior]: remaining } };
}

function removeFromFile(path: string, rule: PermissionRule): void {
  const settings = readSettingsObjectForUpdate(path);
  const permissions = settings.permissions;
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) return;
  const holder = permissions as Record<string, unknown>;
  const list = holder[rule.behavior];
  if (!Array.isArray(list)) return;
  const text = formatRule(rule.value);
  // Entries are compared in their normal form: `Bash(npm test:*)` written with other spacing still matches.
  const kept = list.filter((entry) => {
    if (typeof entry !== "string") return true;
    const parsed = parseRule(entry);
    return !(parsed.ok && formatRule(parsed.value) === text);
  });
  if (kept.length === list.length) return;
  holder[rule.behavior] = kept;
  writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(settings, null, 2)}\n`, "utf8"));
}
