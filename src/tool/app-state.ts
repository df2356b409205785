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
}
