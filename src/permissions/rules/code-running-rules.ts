// Allow rules that hand over arbitrary code execution: `Bash`, `Bash(*...)`, or a rule for a
// program that runs whatever it is given (a shell, an interpreter, a wrapper like env or sudo).
// Auto mode sets them aside, and a plan's approval may not add one.
import type { PermissionRule } from "../../tool/permission-types.js";

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
