// The rule steps of the decision pipeline, in the reference's order (1a → 3). Each step may end
// the walk; the decision names the step, rule or check that ended it.
//
//   1a deny rule for the whole tool      → deny (checkPermissions is not even called)
//   1b ask rule for the whole tool       → ask
//   1c the tool's own checkPermissions
//   1d   its deny                        → deny
//   1e   its ask, tool needs a human     → ask   ┐ asked even in bypass mode:
//   1f   its ask from a content ask rule → ask   │ these are the asks bypass
//   1g   its ask from a safety check     → ask   ┘ must not override
//   2a bypassPermissions mode            → allow
//   2b allow rule for the whole tool     → allow
//   3  passthrough                       → ask
//
// The mode's last word comes after these (modes.ts); decide.ts runs the whole walk.
import type {
  PermissionAsk,
  PermissionDecision,
  PermissionResult,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import type { AnyTool, ToolInput, ToolUseContext } from "../../tool/types.js";
import { describeRule, findWholeToolRule } from "../rules/index.js";

/** A context whose AppState holds this permission context: what the tool's own check reads. */
export function withPermissionContext(
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
): ToolUseContext {
  if (context.getAppState().toolPermissionContext === permissionContext) return context;
  return { ...context, getAppState: () => ({ ...context.getAppState(), toolPermissionContext: permissionContext }) };
}

export function isBypassActive(permissionContext: ToolPermissionContext): boolean {
  return permissionContext.mode === "bypassPermissions" && permissionContext.isBypassPermissionsModeAvailable;
}

/** An ask that no mode may turn into allow (steps 1e-1g). */
export function isBypassImmuneAsk(tool: AnyTool, result: PermissionResult): boolean {
  if (result.behavior !== "ask") return false;
  const reason = result.decisionReason;
  return (
    tool.requiresUserInteraction() ||
    (reason?.type === "rule" && reason.rule.behavior === "ask") ||
    reason?.type === "safetyCheck"
  );
}

async function toolCheck(tool: AnyTool, input: ToolInput, context: ToolUseContext): Promise<PermissionResult> {
  try {
    return await tool.checkPermissions(input, context);
  } catch (error) {
    // A check that cannot finish has not shown the call is safe.
    const reason = `${tool.name}'s permission check failed: ${error instanceof Error ? error.message : String(error)}`;
    return { behavior: "deny", message: reason, decisionReason: { type: "tool", reason } };
  }
}

/**
 * Steps 1a-1g only: what rules and the tool's own safety say, before any mode or allow rule.
 * Undefined means "no objection". Used when a PreToolUse hook allowed a call: a hook may skip the
 * prompt, but not a deny rule or a safety check.
 */
export async function checkRuleBasedPermissions(
  tool: AnyTool,
  input: ToolInput,
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
): Promise<PermissionDecision | undefined> {
  const early = wholeToolRuleDecision(tool, permissionContext);
  if (early) return early;
  const result = await toolCheck(tool, input, withPermissionContext(context, permissionContext));
  if (result.behavior === "deny") return result;
  if (isBypassImmuneAsk(tool, result)) return result as PermissionAsk;
  return undefined;
}

function wholeToolRuleDecision(
  tool: AnyTool,
  permissionContext: ToolPermissionContext,
): PermissionDecision | undefined {
  const deny = findWholeToolRule(permissionContext.rules.deny, tool);
  if (deny) {
    return {
      behavior: "deny",
      message: `Permission to use ${tool.name} has been denied by ${describeRule(deny)}.`,
      decisionReason: { type: "rule", rule: deny },
    };
  }
  const ask = findWholeToolRule(permissionContext.rules.ask, tool);
  if (ask) {
    return {
      behavior: "ask",
      message: `${tool.name} needs approval: ${describeRule(ask)}.`,
      decisionReason: { type: "rule", rule: ask },
    };
  }
  return undefined;
}

/** Steps 1a → 3: the engine's decision before the mode's last word. */
export async function decideByRules(
  tool: AnyTool,
  input: ToolInput,
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
): Promise<PermissionDecision> {
  const early = wholeToolRuleDecision(tool, permissionContext); // 1a, 1b
  if (early) return early;

  const result = await toolCheck(tool, input, withPermissionContext(context, permissionContext)); // 1c
  if (result.behavior === "deny") return result; // 1d
  if (isBypassImmuneAsk(tool, result)) {
    // 1e-1g
    const ask = result as PermissionAsk;
    if (tool.requiresUserInteraction() && ask.decisionReason === undefined) {
      return { ...ask, decisionReason: { type: "tool", reason: `${tool.name} needs a human to answer it` } };
    }
    return ask;
  }

  if (isBypassActive(permissionContext)) {
    // 2a
    return {
      behavior: "allow",
      updatedInput: "updatedInput" in result ? result.updatedInput : undefined,
      decisionReason: { type: "mode", mode: "bypassPermissions" },
    };
  }
  const allow = findWholeToolRule(permissionContext.rules.allow, tool); // 2b
  if (allow) {
    return {
      behavior: "allow",
      updatedInput: "updatedInput" in result ? result.updatedInput : undefined,
      decisionReason: { type: "rule", rule: allow },
    };
  }
  if (result.behavior === "passthrough") {
    // 3
    return {
      behavior: "ask",
      message: result.message,
      decisionReason: result.decisionReason,
      suggestions: result.suggestions ?? [
        { type: "addRules", behavior: "allow", rules: [{ toolName: tool.name }], destination: "localSettings" },
      ],
    };
  }
  return result;
}
