// The rule language and where rules come from: a rule's text (`Bash(git commit:*)`,
// `Read(./src/**)`, `mcp__server`), the rule lists of settings files, flags and the session with
// their sources, matching a rule to a tool or a path, rules that can never apply, and the words
// the engine uses for rules and reasons.

export { isCodeRunningRuleValue, isDangerousAllowRule, isOfferableAllowRule } from "./code-running-rules.js";
export { describeReason, describeRule, messageWithReason, reasonBesides } from "./describe.js";
export { compilePathPattern, findMatchingPathRule, findPathRuleInside } from "./path-rules.js";
export { findWholeToolRule, ruleNamesTool } from "./rule-match.js";
export {
  emptyRules,
  mergeRules,
  type ParsedRules,
  RULE_BEHAVIORS,
  rulesFromSettingsFile,
  rulesFromStrings,
  SOURCE_PRECEDENCE,
} from "./rule-sources.js";
export { formatRule, normalizeRule, parseRule, type RuleParseResult, splitRuleList } from "./rule-string.js";
export { findShadowedRules } from "./shadowed-rules.js";
