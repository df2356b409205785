// What "yes, and don't ask again" applies of the engine's suggestions, the same in every front end
// (the terminal's dialog, an editor's "always allow"). A command can be held back for two reasons
// at once: `npm run build && cat /elsewhere/log` needs a rule for npm and the folder for the file;
// the answer grants both, or the same question would come back.
import type { PermissionUpdate } from "../../tool/permission-types.js";

/**
 * The updates "don't ask again" applies, the one to name first leading: the allow rules, with the
 * folders to add beside them when some were offered too; else the one other kind offered (a
 * folder, a mode). Empty when nothing was offered.
 */
export function alwaysAllowUpdates(suggestions: readonly PermissionUpdate[] | undefined): PermissionUpdate[] {
  const offered = suggestions ?? [];
  const rules = offered.find((s) => s.type === "addRules" && s.behavior === "allow");
  const folders = offered.find((s) => s.type === "addDirectories");
  if (rules) return folders ? [rules, folders] : [rules];
  const other = offered.find((s) => s.type !== "addRules");
  return other ? [other] : [];
}
