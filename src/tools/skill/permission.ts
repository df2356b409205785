// Whether a skill may run, in the reference's order:
//   1. a deny rule naming it (`Skill(name)`, `Skill(prefix:*)`)            → deny
//   2. an ask rule naming it                                              → ask (even in bypass)
//   3. an allow rule naming it                                            → allow
//   4. its frontmatter uses only properties that change nothing but text  → allow
//   5. otherwise                                                          → ask
// Rules naming the whole tool (`Skill`) are the engine's (before and after this check). A property
// this list does not know is not safe: a new frontmatter key that grants something must be judged
// before a skill using it runs unasked.
import type { SkillDefinition } from "../../config/skills/index.js";
import { describeRule } from "../../permissions/rules/index.js";
import type { PermissionResult, PermissionRule, RulesByBehavior } from "../../tool/permission-types.js";
import { SKILL_TOOL_NAME } from "./prompt.js";

/** Frontmatter keys that only describe the skill or shape its text; none grants or runs anything. */
export const SAFE_SKILL_PROPERTIES: ReadonlySet<string> = new Set([
  "name",
  "description",
  "when_to_use",
  "when-to-use",
  "argument-hint",
  "arguments",
  "version",
  "license",
  "author",
  "metadata",
  "tags",
  "compatibility",
  "user-invocable",
  "disable-model-invocation",
]);

/** Keys of the skill's frontmatter outside the safe list (why it is not allowed unasked). */
export function unsafeProperties(skill: SkillDefinition): string[] {
  return skill.frontmatterKeys.filter((key) => !SAFE_SKILL_PROPERTIES.has(key));
}

/** `Skill(name)` names that skill; `Skill(prefix:*)` every skill whose name starts with prefix. */
export function ruleNamesSkill(rule: PermissionRule, name: string): boolean {
  if (rule.value.toolName !== SKILL_TOOL_NAME || rule.value.ruleContent === undefined) return false;
  const content = rule.value.ruleContent.trim().replace(/^\//, "");
  if (content.endsWith(":*")) return name.startsWith(content.slice(0, -2));
  return content === name;
}

const find = (rules: readonly PermissionRule[], name: string) => rules.find((rule) => ruleNamesSkill(rule, name));

export function skillPermission<Input>(skill: SkillDefinition, rules: RulesByBehavior): PermissionResult<Input> {
  const deny = find(rules.deny, skill.name);
  if (deny) {
    return {
      behavior: "deny",
      message: `Running the skill ${skill.name} has been denied by ${describeRule(deny)}.`,
      decisionReason: { type: "rule", rule: deny },
    };
  }
  const ask = find(rules.ask, skill.name);
  if (ask) {
    return {
      behavior: "ask",
      message: `The skill ${skill.name} needs approval: ${describeRule(ask)}.`,
      decisionReason: { type: "rule", rule: ask },
    };
  }
  const allow = find(rules.allow, skill.name);
  if (allow) return { behavior: "allow", decisionReason: { type: "rule", rule: allow } };
  const unsafe = unsafeProperties(skill);
  if (unsafe.length === 0) {
    return {
      behavior: "allow",
      decisionReason: { type: "tool", reason: `the skill ${skill.name} uses only properties that grant nothing` },
    };
  }
  return {
    behavior: "ask",
    message: `Run the skill ${skill.name} (${skill.file})? Its frontmatter sets ${unsafe.map((k) => `\`${k}\``).join(", ")}.`,
    decisionReason: { type: "tool", reason: `the skill sets ${unsafe.join(", ")}` },
    suggestions: [
      {
        type: "addRules",
        behavior: "allow",
        rules: [{ toolName: SKILL_TOOL_NAME, ruleContent: skill.name }],
        destination: "localSettings",
      },
    ],
  };
}
