// Plan mode as a permission mode: entering remembers the mode to return to, leaving restores it;
// the one file the session may write meanwhile is its plan file, which lives in the session's own
// folder (outside the working directories, so the ordinary path checks would ask for it).
import { basename, dirname, join } from "node:path";
import { planFilePathIn } from "../config/paths.js";
import { pathsToCheck, resolveRealPath } from "../fs/real-path.js";
import type { AppState } from "../tool/app-state.js";
import type { PermissionMode, ToolPermissionContext } from "../tool/permission-types.js";
import type { AllowedPrompt } from "../tool/user-dialog.js";
import { isDangerousAllowRule } from "./auto-mode-rules.js";
import { parseRule } from "./rule-string.js";

/**
 * True when `absolutePath` is the session's plan file, as spelled and where it really leads: a
 * link planted at the plan file's place that points elsewhere is not the plan file.
 */
export function isPlanFile(absolutePath: string, context: ToolPermissionContext): boolean {
  const plan = context.planFilePath;
  if (plan === undefined) return false;
  // Where the plan file belongs: its folder resolved, its own name not (if plan.md itself is a
  // link, its target is somewhere else, and that is not the plan file).
  const places = [plan, join(resolveRealPath(dirname(plan)), basename(plan))];
  return pathsToCheck(absolutePath).every((path) => places.includes(path));
}

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
