// PLACEHOLDER authority for headless sessions until the permission engine (src/permissions/) is
// wired in: the permission engineer replaces the body of these two functions, nothing else.
// Fail closed: only calls the tool itself declares read-only run; everything else is refused with
// a message the model can act on. Bypass (--dangerously-skip-permissions / bypassPermissions)
// and exact tool names in --allowedTools are honoured because the user asked for them explicitly.
import { type ToolPermissionContext, emptyPermissionContext } from "../tool/permission-types.js";
import type { CanUseTool } from "../tool/types.js";
import type { SessionConfig } from "./session-config.js";

export function buildPermissionContext(config: SessionConfig): ToolPermissionContext {
  const mode = config.dangerouslySkipPermissions ? "bypassPermissions" : (config.permissionMode ?? "default");
  const context = emptyPermissionContext(config.cwd, mode);
  return { ...context, workingDirectories: [config.cwd, ...config.addDirs] };
}

export function buildHeadlessCanUseTool(config: SessionConfig): CanUseTool {
  const bypass = config.dangerouslySkipPermissions || config.permissionMode === "bypassPermissions";
  const allowedNames = new Set(config.allowedTools);
  const deniedNames = new Set(config.disallowedTools);
  return async (tool, input) => {
    if (deniedNames.has(tool.name)) {
      return {
        behavior: "deny",
        message: `Permission to use ${tool.name} was denied by --disallowedTools.`,
        decisionReason: { type: "other", reason: "--disallowedTools" },
      };
    }
    if (bypass || allowedNames.has(tool.name) || tool.isReadOnly(input)) return { behavior: "allow" };
    return {
      behavior: "deny",
      message: `Permission to use ${tool.name} was denied: this headless session runs only read-only tool calls, and nobody is here to approve this one. The user can allow it with --allowedTools ${tool.name}.`,
      decisionReason: { type: "mode", mode: "dontAsk" },
    };
  };
}
