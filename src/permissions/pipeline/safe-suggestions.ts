// What an ask offers as "don't ask again" (the UI's option, the Agent SDK's permission_suggestions,
// the headless refusal's advice) is never wider than the call: an allow rule that would approve
// arbitrary code (the whole Bash tool, `node:*`, `sudo:*`, `uv run:*`...) is taken out whoever
// proposed it (a tool's own check, the pipeline's whole-tool default); an exact command
// (`Bash(node --test test/)`) stays, as it allows only what was shown. What is left may be
// nothing: then the person can allow the call once, and nothing is saved. Nor is anything offered
// that is already in force (an allow rule the settings hold, the mode the session is in): it did not
// allow this call, so adding it again would not either, and advice to add it misleads.
import type {
  PermissionDecision,
  PermissionRuleValue,
  PermissionUpdate,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import { isOfferableAllowRule } from "../rules/index.js";

type InForce = Pick<ToolPermissionContext, "mode" | "rules">;

function isAllowedAlready(value: PermissionRuleValue, context: InForce | undefined): boolean {
  return (
    context?.rules.allow.some(
      (rule) => rule.value.toolName === value.toolName && (rule.value.ruleContent ?? "") === (value.ruleContent ?? ""),
    ) ?? false
  );
}

export function safeSuggestions(updates: readonly PermissionUpdate[], context?: InForce): PermissionUpdate[] {
  const kept: PermissionUpdate[] = [];
  for (const update of updates) {
    if (update.type === "setMode" && update.mode === "bypassPermissions") continue;
    if (update.type === "setMode" && update.mode === context?.mode) continue;
    if (update.type !== "addRules" || update.behavior !== "allow") {
      kept.push(update);
      continue;
    }
    const rules = update.rules.filter((rule) => isOfferableAllowRule(rule) && !isAllowedAlready(rule, context));
    if (rules.length > 0) kept.push({ ...update, rules });
  }
  return kept;
}

/** The decision with its suggestions made safe and new (asks only; other decisions carry none). */
export function withSafeSuggestions(decision: PermissionDecision, context?: InForce): PermissionDecision {
  if (decision.behavior !== "ask" || decision.suggestions === undefined) return decision;
  return { ...decision, suggestions: safeSuggestions(decision.suggestions, context) };
}
