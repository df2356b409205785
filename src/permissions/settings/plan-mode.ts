// Plan mode as a change of the permission context: entering remembers the mode to return to (and
// names the session's plan file, the one file it may write meanwhile: ../filesystem/plan-file.ts),
// leaving restores it; the Bash rules a plan's approval may add.
import { planFilePathIn } from "../../config/paths.js";
import type { AppState } from "../../tool/app-state.js";
import { PERMISSION_MODES, type PermissionMode, type ToolPermissionContext } from "../../tool/permission-types.js";
import type { AllowedPrompt } from "../../tool/user-dialog.js";
import { isDangerousAllowRule, parseRule } from "../rules/index.js";

/** The state with plan mode on, remembering the mode to come back to. */
export function enterPlanMode(state: AppState, sessionDir: string): AppState {
  const permissions = state.toolPermissionContext;
  return {
    ...state,
    planMode: { previousMode: permissions.mode },
    toolPermissionContext: {
      ...permissions,
      mode: "plan",
      planFilePath: permissions.planFilePath ?? planFilePathIn(sessionDir),
    },
  };
}

/**
 * The mode the session returns to when its plan is approved: the one it was in before plan mode,
 * default when it started in plan mode, and default instead of auto once auto mode's circuit
 * breaker has tripped (the classifier kept refusing: a person should decide from now on).
 */
export function modeAfterPlan(state: AppState): PermissionMode {
  const previous = state.planMode?.previousMode ?? "default";
  if (previous === "plan") return "default";
  if (previous === "auto" && state.autoModeCircuitTripped) return "default";
  if (previous === "bypassPermissions" && !state.toolPermissionContext.isBypassPermissionsModeAvailable)
    return "default";
  return previous;
}

export function leavePlanMode(state: AppState, nextMode: PermissionMode): AppState {
  const { planMode: _left, ...rest } = state;
  return { ...rest, toolPermissionContext: { ...state.toolPermissionContext, mode: nextMode } };
}

/**
 * Why the session may not switch to `mode`, or undefined: a name that is no mode, or
 * bypassPermissions when the session did not start with it available (--dangerously-skip-
 * permissions) or a policy turned it off. Every front end's switch is judged here.
 */
export function permissionModeProblem(context: ToolPermissionContext, mode: string): string | undefined {
  if (!(PERMISSION_MODES as readonly string[]).includes(mode)) {
    return `${JSON.stringify(mode)} is not a permission mode (one of ${PERMISSION_MODES.join(", ")})`;
  }
  if (mode === "bypassPermissions" && !context.isBypassPermissionsModeAvailable) {
    return "bypassPermissions needs --dangerously-skip-permissions or --allow-dangerously-skip-permissions at start (and no policy disabling it)";
  }
  return undefined;
}

/**
 * The state in `next` mode, with plan mode's bookkeeping: entering remembers the mode to return to
 * and names the plan file (under `sessionDir`), leaving forgets it. The caller has checked the
 * switch with permissionModeProblem.
 */
export function withPermissionMode(state: AppState, next: PermissionMode, sessionDir: string): AppState {
  const current = state.toolPermissionContext.mode;
  if (next === current) return state;
  if (next === "plan") return enterPlanMode(state, sessionDir);
  if (current === "plan") return leavePlanMode(state, next);
  return { ...state, toolPermissionContext: { ...state.toolPermissionContext, mode: next } };
}

/**
 * Why an allowedPrompts entry of ExitPlanMode cannot become a Bash allow rule, or undefined. The
 * entry is a rule pattern (`npm run test:*`); one that would approve any command (`*`, a shell or
 * interpreter) is refused, as auto mode sets such rules aside: a plan's approval must not hand
 * over arbitrary code execution in passing.
 */
export function allowedPromptProblem(prompt: AllowedPrompt): string | undefined {
  const parsed = parseRule(`Bash(${prompt.prompt})`);
  if (!parsed.ok) return `${JSON.stringify(prompt.prompt)} is not a Bash rule pattern: ${parsed.error}`;
  if (parsed.value.ruleContent === undefined) return `${JSON.stringify(prompt.prompt)} would allow every command`;
  if (isDangerousAllowRule({ source: "session", behavior: "allow", value: parsed.value })) {
    return `${JSON.stringify(prompt.prompt)} would allow arbitrary code to run; name the specific commands instead`;
  }
  return undefined;
}

/** The allow rule an allowedPrompts entry becomes (checked with allowedPromptProblem first). */
export function allowedPromptRule(prompt: AllowedPrompt): { toolName: string; ruleContent?: string } {
  const parsed = parseRule(`Bash(${prompt.prompt})`);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}
