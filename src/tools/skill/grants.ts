// A skill's `allowed-tools`: allow rules that hold only while the skill runs. For an inline skill
// that is the rest of the prompt that invoked it: the rules ride on the call's context (a
// contextModifier), which the loop carries to the following calls of that prompt and drops when
// it ends; they are never written to settings or the session's own rules. A project skill's grants
// wait for the folder to be trusted, like its settings' allow rules.
import { mergeRules, parseRule, splitRuleList } from "../../permissions/rules/index.js";
import type { PermissionRule, RulesByBehavior, ToolPermissionContext } from "../../tool/permission-types.js";
import type { ToolUseContext } from "../../tool/types.js";

export interface SkillGrants {
  rules: PermissionRule[];
  /** Entries that could not become a rule, with why. */
  rejected: Array<{ entry: string; why: string }>;
}

export function parseGrants(entries: readonly string[], root: string): SkillGrants {
  const rules: PermissionRule[] = [];
  const rejected: SkillGrants["rejected"] = [];
  for (const entry of entries.flatMap((item) => splitRuleList(item))) {
    const parsed = parseRule(entry);
    if (!parsed.ok) rejected.push({ entry, why: parsed.error });
    else rules.push({ source: "session", behavior: "allow", value: parsed.value, root });
  }
  return { rules, rejected };
}

function withAllowRules(rules: RulesByBehavior, added: readonly PermissionRule[]): RulesByBehavior {
  return mergeRules(rules, { allow: [...added], deny: [], ask: [] });
}

/**
 * The context the calls after the skill's see: the same session state, with the grants among the
 * allow rules. Deny and ask rules, the mode and bypass-immune checks still come first.
 */
export function grantWhileRunning(rules: readonly PermissionRule[]): (context: ToolUseContext) => ToolUseContext {
  return (context) => {
    const base = context.getAppState;
    // Merged once per permission context (it is immutable: a change makes a new one).
    let seen: { from: ToolPermissionContext; to: ToolPermissionContext } | undefined;
    return {
      ...context,
      getAppState: () => {
        const state = base();
        const permissions = state.toolPermissionContext;
        if (permissions.managedRulesOnly) return state; // only the policy's rules count
        if (seen?.from !== permissions) {
          seen = { from: permissions, to: { ...permissions, rules: withAllowRules(permissions.rules, rules) } };
        }
        return { ...state, toolPermissionContext: seen.to };
      },
    };
  };
}
