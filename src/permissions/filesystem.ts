// PLACEHOLDER (conservative) until the permission engine issue replaces it: path-based checks that
// file tools call from their own checkPermissions. Reads inside the working directories are
// allowed; everything else has no opinion (passthrough → ask). Writes always ask.
import * as path from "node:path";
import type { PermissionResult, ToolPermissionContext } from "../tool/permission-types.js";

export function isInsideWorkingDirectories(absolutePath: string, context: ToolPermissionContext): boolean {
  const target = path.resolve(absolutePath);
  return context.workingDirectories.some((dir) => {
    const rel = path.relative(path.resolve(dir), target);
    return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  });
}

export function checkReadPermission(
  toolName: string,
  absolutePath: string,
  context: ToolPermissionContext,
): PermissionResult {
  if (isInsideWorkingDirectories(absolutePath, context)) {
    return { behavior: "allow", decisionReason: { type: "other", reason: "read inside the working directories" } };
  }
  return { behavior: "passthrough", message: `${toolName} wants to read ${absolutePath}, outside the working directories.` };
}

export function checkWritePermission(
  toolName: string,
  absolutePath: string,
  _context: ToolPermissionContext,
): PermissionResult {
  return { behavior: "passthrough", message: `${toolName} wants to write ${absolutePath}.` };
}
