import type { ToolPermissionContext } from "./permission-types.js";

/**
 * Session-wide mutable state reached through ToolUseContext.getAppState/setAppState.
 * Modules that need more fields add them by declaration merging in their own folder:
 *
 *   declare module "../../tool/app-state.js" { interface AppState { todos?: Todo[] } }
 *
 * so no module has to edit this file to store its state.
 */
export interface AppState {
  toolPermissionContext: ToolPermissionContext;
  /**
   * Texts for the model that arrived outside a tool result (a background command finished, a
   * hook added context). The loop drains them into one <system-reminder> user message before its
   * next model request.
   */
  pendingReminders?: string[];
}
