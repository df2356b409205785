// Rules that can never take effect, reported so users are not left wondering why one "does not
// work": a whole-tool deny rule decides before any rule about that tool's content is looked at,
// and a whole-tool ask rule asks before a content allow rule could allow.
import type { SettingsIssue } from "../../config/settings.js";
import type { PermissionRule, RulesByBehavior } from "../../tool/permission-types.js";
import { describeRule } from "./describe.js";

function issue(rule: PermissionRule, message: string): SettingsIssue {
  return { file: rule.file ?? rule.source, line: rule.line, message };
}

export function findShadowedRules(rules: RulesByBehavior): SettingsIssue[] {
  const wholeDeny = new Map(
    rules.deny.filter((r) => r.value.ruleContent === undefined).map((r) => [r.value.toolName, r]),
  );
  const wholeAsk = new Map(
    rules.ask.filter((r) => r.value.ruleContent === undefined).map((r) => [r.value.toolName, r]),
  );
  const issues: SettingsIssue[] = [];
  // A flag given for this run (`--disallowedTools Bash`) setting aside a file's rules is the
  // point of the flag, not a mistake in the file: only a flag's own rules are reported against it.
  const choseForThisRun = (shadowing: PermissionRule, rule: PermissionRule) =>
    shadowing.source === "cliArg" && rule.source !== "cliArg";
  for (const rule of [...rules.allow, ...rules.ask]) {
    const denied = wholeDeny.get(rule.value.toolName);
    if (denied && choseForThisRun(denied, rule)) continue;
    if (denied) {
      issues.push(
        issue(rule, `${describeRule(rule)} never applies: ${describeRule(denied)} denies the whole tool first`),
      );
      continue;
    }
    const asked = wholeAsk.get(rule.value.toolName);
    if (asked && asked !== rule && rule.behavior === "allow" && !choseForThisRun(asked, rule)) {
      issues.push(
        issue(rule, `${describeRule(rule)} never applies: ${describeRule(asked)} asks about the whole tool first`),
      );
    }
  }
  return issues;
}
