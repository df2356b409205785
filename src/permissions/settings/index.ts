// The session's permission context: built from settings and flags (with everything else a session
// needs from settings at start: hooks, sandbox settings, the project's trust), and changed while
// it runs: "don't ask again" answers applied and saved, plan mode entered and left.

export {
  type BuildPermissionContextOptions,
  type BuiltPermissionContext,
  buildPermissionContext,
  isPermissionMode,
  type PermissionCliOptions,
  PermissionConfigError,
} from "./context-builder.js";
export {
  allowedPromptProblem,
  allowedPromptRule,
  enterPlanMode,
  leavePlanMode,
  modeAfterPlan,
  permissionModeProblem,
  withPermissionMode,
} from "./plan-mode.js";
export { type RuleRemoval, removeRuleFromSource, withoutRule } from "./remove-rule.js";
export { loadSessionPermissions, type SessionPermissions, type SessionPermissionsOptions } from "./session-setup.js";
export {
  addToUserSettingList,
  applyPermissionUpdate,
  applyPermissionUpdates,
  persistPermissionUpdate,
  persistUserSetting,
  settingsPathFor,
} from "./updates.js";
