// Allow rules that hand over arbitrary code execution: `Bash`, `Bash(*...)`, or a rule for a
// program that runs whatever it is given (a shell, an interpreter, a wrapper like env or sudo, a
// runner like npx or `uv run`: the shell analysis's own list, codeRunnerReason). Auto mode sets
// them aside, a plan's approval may not add one, and no prompt ever suggests one.
import { codeRunnerReason } from "../../shell/commands/index.js";
import { canonicalCommandName, classOfCmdlet } from "../../shell/powershell/cmdlets.js";
import type { PermissionRule, PermissionRuleValue } from "../../tool/permission-types.js";

/** `Bash`, `Bash(*...)`, `Bash(python:*)`, `Bash(node script.js)`: rules that approve arbitrary code. */
export function isDangerousAllowRule(rule: PermissionRule): boolean {
  return isCodeRunningRuleValue(rule.value);
}

/** The same for a rule's value alone (a suggestion, before it has a source). */
export function isCodeRunningRuleValue(value: PermissionRuleValue): boolean {
  if (value.toolName === "PowerShell") return isCodeRunningPowerShellRule(value.ruleContent);
  if (value.toolName !== "Bash") return false;
  const content = value.ruleContent?.trim();
  if (content === undefined || content === "" || content.startsWith("*")) return true;
  // `node:*`, `uv run:*`, `npx foo`: the words before the prefix marker, as a command starts.
  const words = content
    .replace(/:\*$|\s\*$/, "")
    .split(/\s+/)
    .filter((word) => word !== "");
  // An assignment first (`FOO=1 node x`) hides the program behind it: judge what follows.
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? "")) words.shift();
  if (words.length === 0) return true;
  const head = (words[0] ?? "").replace(/^['"]|['"]$/g, "");
  return codeRunnerReason([head, ...(words[1] === undefined ? [] : [words[1]])]) !== undefined;
}

/** `PowerShell`, `PowerShell(*)`, `PowerShell(iex:*)`, `PowerShell(pwsh:*)`: the same for PowerShell. */
function isCodeRunningPowerShellRule(ruleContent: string | undefined): boolean {
  const content = ruleContent?.trim();
  if (content === undefined || content === "" || content.startsWith("*")) return true;
  const head = content.replace(/:\*$|\s\*$/, "").split(/\s+/)[0] ?? "";
  return classOfCmdlet(canonicalCommandName(head.replace(/^['"]|['"]$/g, ""))) === "runs-code";
}
