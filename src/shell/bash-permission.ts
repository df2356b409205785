// PLACEHOLDER (fail-closed) until the Bash issue replaces it: every command asks.
import type { PermissionResult, ToolPermissionContext } from "../tool/permission-types.js";

export interface BashPermissionRequest {
  command: string;
  /** The shell's current directory (it may differ from the session's start directory after `cd`). */
  cwd: string;
  permissionContext: ToolPermissionContext;
}

export async function checkBashCommandPermission(request: BashPermissionRequest): Promise<PermissionResult> {
  return { behavior: "passthrough", message: `Bash wants to run: ${request.command}` };
}
