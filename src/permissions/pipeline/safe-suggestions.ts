// What an ask offers as "don't ask again" (the UI's option, the Agent SDK's permission_suggestions,
// the headless refusal's advice) is never wider than the call: an allow rule that would approve
// arbitrary code (the whole Bash tool, `node:*`, `sudo:*`, `uv run:*`...) is taken out whoever
// proposed it (a tool's own check, the pipeline's whole-tool default). What is left may be
// nothing: then the person can allow the call once, and nothing is saved.
import type { PermissionDecision, PermissionUpdate } from "../../tool/permission-types.js";
import { isCodeRunningRuleValue } from "../rules/index.js";

export function safeSuggestions(updates: readonly PermissionUpdate[]): PermissionUpdate[] {
  const kept: PermissionUpdate[] = [];
  for (const update of updates) {
    if (update.type === "setMode" && update.mode === "bypassPermissions") continue;
    if (update.type !== "addRules" || update.behavior !== "allow") {
      kept.push(update);
      continue;
    }
    const rules = update.rules.filter((rule) => !isCodeRunningRuleValue(rule));
    if (rules.length > 0) kept.push({ ...update, rules });
  }
  return kept;
}

/** The decision with its suggestions made safe (asks only; other decisions carry none). */
export function withSafeSuggestions(decision: PermissionDecision): PermissionDecision {
  if (decision.behavior !== "ask" || decision.suggestions === undefined) return decision;
  return { ...decision, suggestions: safeSuggestions(decision.suggestions) };
}
