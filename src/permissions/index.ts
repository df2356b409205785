// The permission engine's public face: build a context from settings and flags, decide calls,
// settle asks, persist "don't ask again", run auto mode.

export {
  type LoadedSettings,
  loadSettings,
  SettingsError,
  type SettingsFile,
  type SettingsIssue,
  settingsMcpServers,
} from "../config/settings.js";
export {
  type AskHandler,
  type AskRequest,
  type AskResponse,
  createHeadlessAskHandler,
  denyAskHandler,
} from "./ask-handlers.js";
export * from "./bash/index.js";
export { type CreateCanUseToolOptions, createCanUseTool, type PermissionDecisionRecord } from "./can-use-tool.js";
export { type CheckRequest, createPermissionChecker, type DecisionLine } from "./check-request.js";
export type { AutoModeClassifier, ClassifierRequest, ClassifierVerdict } from "./classifier.js";
export {
  type BuildPermissionContextOptions,
  buildPermissionContext,
  isPermissionMode,
  type PermissionCliOptions,
  PermissionConfigError,
} from "./context-builder.js";
export { DenialTracker } from "./denial-tracking.js";
export { describeReason, describeRule } from "./describe.js";
export { checkReadPermission, checkWritePermission, isInsideWorkingDirectories } from "./filesystem.js";
export { createModelClassifier } from "./model-classifier.js";
export { hasPermissionsToUseTool, type PipelineOutcome, runPermissionPipeline } from "./pipeline.js";
export { READ_RULE_NAME, ruleNamesFor, WRITE_RULE_NAME } from "./rule-family.js";
export { checkRuleBasedPermissions, decideByRules, isBypassImmuneAsk } from "./rule-steps.js";
export { formatRule, normalizeRule, parseRule, splitRuleList } from "./rule-string.js";
export { loadSessionPermissions, type SessionPermissions } from "./session-setup.js";
export { applyPermissionUpdate, applyPermissionUpdates, persistPermissionUpdate, settingsPathFor } from "./updates.js";
