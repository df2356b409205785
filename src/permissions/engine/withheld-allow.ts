// A call refused in a folder that is not trusted, which the folder's own allow rule would have let
// through: the rule was held back (a repository may not widen what Warden does until the user
// trusts it), and the refusal says so, naming the rule and how to trust the folder. Without this
// the user sees "needs approval" and advice to add a rule the folder already has.
import type { SettingsFile } from "../../config/settings.js";
import type { PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";
import type { AnyTool, ToolInput, ToolUseContext } from "../../tool/types.js";
import { runPermissionPipeline } from "../pipeline/index.js";
import { describeRule, mergeRules, rulesFromSettingsFile } from "../rules/index.js";

/** The call that was asked about, as the ask handler has it. */
export interface AskedCall {
  tool: AnyTool;
  input: ToolInput;
  context: ToolUseContext;
  permissionContext: ToolPermissionContext;
}

/** The held-back allow rules of the folder's files (their other held-back settings do not decide calls). */
export function withheldAllowRules(files: readonly SettingsFile[]): PermissionRule[] {
  return files.flatMap((file) => rulesFromSettingsFile(file).rules.allow);
}

/**
 * The withheld allow rule that would have allowed the call, decided as the session decides (its
 * deny and ask rules, mode and safety checks still first), or undefined.
 */
export async function withheldRuleAllowing(
  request: AskedCall,
  withheld: readonly PermissionRule[],
): Promise<PermissionRule | undefined> {
  if (withheld.length === 0) return undefined;
  const { permissionContext } = request;
  const rules = mergeRules(permissionContext.rules, { allow: [...withheld], deny: [], ask: [] });
  const { decision } = await runPermissionPipeline(request.tool, request.input, request.context, {
    ...permissionContext,
    rules,
  });
  const reason = decision.decisionReason;
  if (decision.behavior !== "allow" || reason?.type !== "rule") return undefined;
  return withheld.includes(reason.rule) ? reason.rule : undefined;
}

/** The refusal's advice when a withheld rule would have allowed the call. */
export function trustAdvice(rule: PermissionRule, folder: string): string {
  return `The folder's own rule ${describeRule(rule)} would allow it, but it is ignored because the folder is not trusted: the user can run \`warden trust ${folder}\` (it shows what the folder grants before trusting it) or pass --trust-project for one run.`;
}
