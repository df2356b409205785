// The whole decision without asking anyone, for every mode:
//   1. the PreToolUse hook's word, when a hook had one (handed in with the call)
//   2. the rule steps 1a → 3 (rule-steps.ts)
//   3. the mode's last word (modes.ts)
// What comes out is final, or an ask for the engine's later steps to settle (in auto mode the
// classifier, then the session's ask handler).
import type { PermissionDecision, PreToolUseHookDecision, ToolPermissionContext } from "../../tool/permission-types.js";
import type { AnyTool, ToolInput, ToolUseContext } from "../../tool/types.js";
import { autoModePermissionContext } from "./auto-mode-rules.js";
import { applyModeLastWord } from "./modes.js";
import { checkRuleBasedPermissions, decideByRules } from "./rule-steps.js";
import { withSafeSuggestions } from "./safe-suggestions.js";

/** Who settled a decision of the pipeline: its rules and modes, a hook, or auto mode's fast paths. */
export type PipelineSettler = "engine" | "hook" | "autoMode";

export interface PipelineOutcome {
  decision: PermissionDecision;
  settledBy: PipelineSettler;
}

/**
 * The pipeline, saying which part settled the call (the engine records it). An `ask` here is for
 * the classifier (auto mode) or the session's ask handler.
 */
export async function runPermissionPipeline(
  tool: AnyTool,
  input: ToolInput,
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
  hook?: PreToolUseHookDecision,
): Promise<PipelineOutcome> {
  // Auto mode decides with the allow rules that would approve arbitrary code set aside.
  const rulesContext =
    permissionContext.mode === "auto" ? autoModePermissionContext(permissionContext) : permissionContext;
  let decision: PermissionDecision;
  if (hook?.behavior === "allow") {
    // A hook may skip the prompt, never a deny rule or a bypass-immune ask. Its allow is final:
    // no mode second-guesses it.
    const objection = await checkRuleBasedPermissions(tool, input, context, rulesContext);
    if (!objection) {
      return {
        decision: {
          behavior: "allow",
          decisionReason: { type: "hook", hookName: hook.hooks.join(", "), reason: hook.reason },
        },
        settledBy: "hook",
      };
    }
    decision = objection;
  } else if (hook?.behavior === "ask") {
    // A hook's ask stands even where a rule would allow; the mode still has its word on it.
    decision = {
      behavior: "ask",
      message: `A PreToolUse hook asks for approval of ${tool.name}${hook.reason ? `: ${hook.reason}` : ""}.`,
      decisionReason: { type: "hook", hookName: hook.hooks.join(", "), reason: hook.reason },
    };
  } else {
    decision = await decideByRules(tool, input, context, rulesContext);
  }
  const final = withSafeSuggestions(
    await applyModeLastWord({ tool, input, context, permissionContext: rulesContext }, decision),
    permissionContext,
  );
  const byAutoMode = permissionContext.mode === "auto" && decision.behavior === "ask" && final.behavior === "allow";
  return { decision: final, settledBy: byAutoMode ? "autoMode" : "engine" };
}

/**
 * The full decision without asking anyone: the hook's word, the rule steps, then the mode's last
 * word. An `ask` here is for the session's ask handler (or, in auto mode, its classifier) to settle.
 */
export async function hasPermissionsToUseTool(
  tool: AnyTool,
  input: ToolInput,
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
  hook?: PreToolUseHookDecision,
): Promise<PermissionDecision> {
  return (await runPermissionPipeline(tool, input, context, permissionContext, hook)).decision;
}
