// Auto mode decides asks without a person, so rules written for a person's session must not
// hand it arbitrary code execution: those allow rules are set aside while the mode is auto.
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { isDangerousAllowRule } from "../rules/index.js";

const autoContexts = new WeakMap<ToolPermissionContext, ToolPermissionContext>();

/**
 * The context auto mode decides with: allow rules that would approve arbitrary code are set aside,
 * so that such calls reach the classifier instead of passing on a rule written for a person's
 * session. Deny and ask rules are kept as they are.
 */
export function autoModePermissionContext(context: ToolPermissionContext): ToolPermissionContext {
  let stripped = autoContexts.get(context);
  if (!stripped) {
    const allow = context.rules.allow.filter((rule) => !isDangerousAllowRule(rule));
    stripped =
      allow.length === context.rules.allow.length ? context : { ...context, rules: { ...context.rules, allow } };
    autoContexts.set(context, stripped);
  }
  return stripped;
}
