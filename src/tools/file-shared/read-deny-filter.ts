// A search must not reveal what Read may not: with a rule like `Read(./secrets/**)` in the deny
// list, Grep would otherwise print the contents of those files and Glob list their names. Each
// result file is put to the same read check Read uses, and denied ones are dropped. Only deny
// rules with a path can match a single file, so without them nothing is checked (no cost).
import { checkReadPermission } from "../../permissions/filesystem/index.js";
import type { ToolUseContext } from "../../tool/types.js";

/** A predicate "may this file appear in results", or undefined when every file may. */
export function readDenyFilter(
  toolName: string,
  context: ToolUseContext,
): ((absolutePath: string) => boolean) | undefined {
  const permissionContext = context.getAppState().toolPermissionContext;
  if (!permissionContext.rules.deny.some((rule) => rule.value.ruleContent !== undefined)) return undefined;
  const pool = context.options.tools;
  return (absolutePath) => checkReadPermission(toolName, absolutePath, permissionContext, pool).behavior !== "deny";
}
