// The permission engine's public face: build a context from settings and flags, decide calls,
// settle asks, persist "don't ask again", run auto mode.
export { createCanUseTool, type CreateCanUseToolOptions, type PermissionDecisionRecord } from "./can-use-tool.js";
export { type AskHandler, type AskRequest, type AskResponse, createHeadlessAskHandler, denyAskHandler } from "./ask-handlers.js";
export {
  buildPermissionContext,
  isPermissionMode,
  PermissionConfigError,
  type BuildPermissionContextOptions,
  type PermissionCliOptions,
} from "./context-builder.js";
export { checkRuleBasedPermissions, decideByRules, hasPermissionsToUseTool, isBypassImmuneAsk } from "./pipeline.js";
export { checkReadPermission, checkWritePermission, isInsideWorkingDirectories } from "./filesystem.js";
export { formatRule, normalizeRule, parseRule, splitRuleList } from "./rule-string.js";
export { describeReason, describeRule } from "./describe.js";
export { applyPermissionUpdate, applyPermissionUpdates, persistPermissionUpdate, settingsPathFor } from "./updates.js";
export { DenialTracker } from "./denial-tracking.js";
export { type AutoModeClassifier, type ClassifierVerdict, AUTO_MODE_SAFE_TOOLS } from "./auto-mode.js";
export { createModelClassifier } from "./model-classifier.js";
export { createPermissionChecker, type CheckRequest, type DecisionLine } from "./check-request.js";
export { loadSessionPermissions, type SessionPermissions } from "./session-setup.js";
export {
  loadSettings,
  SettingsError,
  settingsMcpServers,
  type LoadedSettings,
  type SettingsFile,
  type SettingsIssue,
} from "../config/settings.js";
