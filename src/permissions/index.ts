// The permission engine's public face: build a context from settings and flags, decide calls,
// settle asks, persist "don't ask again", run auto mode.
//
// Inside, each folder is one concern with an index.ts as its face, and imports only the ones
// before it in this list:
//   rules/       the rule language, rule sources, matching a rule to a tool or a path, their words
//   filesystem/  path checks for file tools, and the bypass-immune safety checks on paths
//   settings/    the permission context from settings and flags; "don't ask again", plan mode
//   pipeline/    the decision without asking: hook's word, rule steps 1a → 3, each mode's last word
//   classifier/  auto mode's classifier step, the model classifier, denial tracking and its breaker
//   engine/      createCanUseTool (pipeline → classifier → ask handler → record), ask handlers,
//                `warden permissions check`
//   bash/        the Bash tool's own permission check (loaded lazily: it needs the shell analysis)

export {
  type LoadedSettings,
  loadSettings,
  SettingsError,
  type SettingsFile,
  type SettingsIssue,
  settingsMcpServers,
} from "../config/settings.js";
export * from "./bash/index.js";
export {
  type AutoModeClassifier,
  type ClassifierRequest,
  type ClassifierVerdict,
  createModelClassifier,
  DenialTracker,
} from "./classifier/index.js";
export {
  type AskHandler,
  type AskRequest,
  type AskResponse,
  type CheckRequest,
  type CreateCanUseToolOptions,
  createCanUseTool,
  createHeadlessAskHandler,
  createPermissionChecker,
  type DecisionLine,
  denyAskHandler,
  type PermissionDecisionRecord,
} from "./engine/index.js";
export {
  checkReadPermission,
  checkWritePermission,
  isInsideWorkingDirectories,
  protectedPathReason,
  READ_RULE_NAME,
  ruleNamesFor,
  WRITE_RULE_NAME,
} from "./filesystem/index.js";
export {
  checkRuleBasedPermissions,
  decideByRules,
  hasPermissionsToUseTool,
  isBypassImmuneAsk,
  type PipelineOutcome,
  runPermissionPipeline,
} from "./pipeline/index.js";
export { describeReason, describeRule, formatRule, normalizeRule, parseRule, splitRuleList } from "./rules/index.js";
export {
  applyPermissionUpdate,
  applyPermissionUpdates,
  type BuildPermissionContextOptions,
  buildPermissionContext,
  isPermissionMode,
  loadSessionPermissions,
  type PermissionCliOptions,
  PermissionConfigError,
  persistPermissionUpdate,
  type SessionPermissions,
  settingsPathFor,
} from "./settings/index.js";
