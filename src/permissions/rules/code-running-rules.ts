// Allow rules that hand over arbitrary code execution: `Bash`, `Bash(*...)`, or a rule for a
// program that runs whatever it is given (a shell, an interpreter, a wrapper like env or sudo, a
// runner like npx or `uv run`: the shell analysis's own list, codeRunnerReason). Auto mode sets
// them aside, a plan's approval may not add one, and a prompt suggests one only as the exact
// command it asked about (isOfferableAllowRule).
import { codeRunnerReason } from "../../shell/commands/index.js";
import { canonicalCommandName, classOfCmdlet } from "../../shell/powershell/cmdlets.js";
import type { PermissionRule, PermissionRuleValue } from "../../tool/permission-types.js";
import { hasRuleWildcard } from "../bash/rules.js";

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

/**
 * Whether an allow rule may be offered as "don't ask again" (a prompt's suggestion, the headless
 * refusal's advice): not one that approves arbitrary code, except an exact Bash command. A rule
 * with no prefix marker and no `*` matches only that command line, word for word: it approves
 * what the person was shown, however capable its program (`Bash(node --test test/)`). Auto mode
 * and a plan's allowedPrompts still set such rules aside (isDangerousAllowRule): nobody reviewed
 * the command there.
 */
export function isOfferableAllowRule(value: PermissionRuleValue): boolean {
  return !isCodeRunningRuleValue(value) || isExactBashCommandRule(value);
}

function isExactBashCommandRule(value: PermissionRuleValue): boolean {
  const content = value.ruleContent?.trim();
  return value.toolName === "Bash" && content !== undefined && content !== "" && !hasRuleWildcard(content);
}

/** `PowerShell`, `PowerShell(*)`, `PowerShell(iex:*)`, `PowerShell(pwsh:*)`: the same for PowerShell. */
function isCodeRunningPowerShellRule(ruleContent: string | undefined): boolean {
  const content = ruleContent?.trim();
  if (content === undefined || content === "" || content.startsWith("*")) return true;
  const head = content.replace(/:\*$|\s\*$/, "").split(/\s+/)[0] ?? "";
  return classOfCmdlet(canonicalCommandName(head.replace(/^['"]|['"]$/g, ""))) === "runs-code";
}
