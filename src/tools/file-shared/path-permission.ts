// The file tools answer for their own input by asking the path checks of src/permissions. Those
// checks know paths, not tool inputs, so they never rewrite an input: any updatedInput they could
// carry is dropped, which also keeps the result typed for the tool's own input. A relative path is
// judged where it leads from the session's working directory, the place the call would act on.
import { checkReadPermission, checkWritePermission } from "../../permissions/filesystem/index.js";
import type { PermissionResult } from "../../tool/permission-types.js";
import type { FileAccessKind, ToolUseContext } from "../../tool/types.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { resolveToolPath } from "./paths.js";

function withoutUpdatedInput<Input>(result: PermissionResult): PermissionResult<Input> {
  if (result.behavior === "allow" || result.behavior === "ask") {
    const { updatedInput: _dropped, ...rest } = result;
    return rest;
  }
  return result;
}

export function filePermission<Input>(
  kind: FileAccessKind,
  toolName: string,
  rawPath: string,
  context: ToolUseContext,
  fieldName = "file_path",
): PermissionResult<Input> {
  const resolved = resolveToolPath(rawPath, sessionWorkingDirectory(context), fieldName);
  if (!resolved.ok) {
    return { behavior: "deny", message: resolved.message, decisionReason: { type: "tool", reason: "invalid path" } };
  }
  const permissionContext = context.getAppState().toolPermissionContext;
  const check = kind === "read" ? checkReadPermission : checkWritePermission;
  return withoutUpdatedInput<Input>(check(toolName, resolved.path, permissionContext, context.options.tools));
}

/**
 * A path the permission rules deny. A tool's validateInput passes such a path on untouched, so the
 * permission check refuses it for the rule (recorded as a denial, the same answer whether the file
 * exists or not) before anything looks at the disk: a "does not exist" with the near names of the
 * folder's files, or "is a directory", would tell what a deny rule hides.
 */
export function deniedByRule(
  kind: FileAccessKind,
  toolName: string,
  absolutePath: string,
  context: ToolUseContext,
  fieldName = "file_path",
): boolean {
  return filePermission(kind, toolName, absolutePath, context, fieldName).behavior === "deny";
}
