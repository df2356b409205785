// The decision without asking anyone, for every mode: the PreToolUse hook's word, the rule steps
// 1a → 3 (rule-steps.ts), then each mode's last word (modes.ts; auto mode decides with the allow
// rules that approve arbitrary code set aside, auto-mode-rules.ts). What it returns is final, or
// an ask for the engine's later steps.

export {
  hasPermissionsToUseTool,
  type PipelineOutcome,
  type PipelineSettler,
  runPermissionPipeline,
} from "./decide.js";
export {
  checkRuleBasedPermissions,
  decideByRules,
  isBypassActive,
  isBypassImmuneAsk,
  withPermissionContext,
} from "./rule-steps.js";
