// Auto mode decides asks without a person, so rules written for a person's session must not
// hand it arbitrary code execution: those allow rules are set aside while the mode is auto.
import type { PermissionRule, ToolPermissionContext } from "../tool/permission-types.js";

/** Programs that run whatever code they are handed: an allow rule for one allows everything. */
const CODE_RUNNERS = new Set([
  "bash",
  "sh",
  "zsh",
  "fish",
  "dash",
  "ksh",
  "eval",
  "exec",
  "source",
  "env",
  "xargs",
  "sudo",
  "su",
  "doas",
  "python",
  "python3",
  "node",
  "deno",
  "bun",
  "ruby",
  "perl",
  "php",
  "lua",
  "npx",
  "bunx",
  "pnpx",
  "uvx",
  "pipx",
]);

/** `Bash`, `Bash(*...)`, `Bash(python:*)`, `Bash(node script.js)`: rules that approve arbitrary code. */
export function isDangerousAllowRule(rule: PermissionRule): boolean {
  if (rule.value.toolName !== "Bash") return false;
  const content = rule.value.ruleContent?.trim();
  if (content === undefined || content.startsWith("*")) return true;
  const first = content.split(/[\s:]/, 1)[0] ?? "";
  return CODE_RUNNERS.has(first.replace(/^.*\//, ""));
}

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
