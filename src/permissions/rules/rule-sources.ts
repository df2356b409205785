// Turns the rule lists of settings files, CLI flags and the session into parsed rules that carry
// where they came from (source, file, line, root folder). A rule that does not parse is reported
// with its file and line, never guessed at nor widened: an allow rule is skipped, a deny or ask
// rule keeps the session from starting (see buildPermissionContext).
import { lineFinder, type SettingsFile, type SettingsIssue } from "../../config/settings.js";
import type {
  PermissionBehavior,
  PermissionRule,
  PermissionRuleSource,
  RulesByBehavior,
} from "../../tool/permission-types.js";
import { parseRule, splitRuleList } from "./rule-string.js";

export const RULE_BEHAVIORS: readonly PermissionBehavior[] = ["deny", "ask", "allow"];

/**
 * The order rules are consulted in, highest precedence first. Every deny still beats every allow
 * whatever its source; the order decides which rule a decision names and whose `defaultMode` wins.
 */
export const SOURCE_PRECEDENCE: readonly PermissionRuleSource[] = [
  "policySettings",
  "cliArg",
  "session",
  "localSettings",
  "projectSettings",
  "userSettings",
];

export function emptyRules(): RulesByBehavior {
  return { allow: [], deny: [], ask: [] };
}

export interface ParsedRules {
  rules: RulesByBehavior;
  issues: SettingsIssue[];
  /**
   * The deny and ask rules among `issues`: restrictions someone wrote that cannot be read, which a
   * session must not start without (an allow rule that cannot be read only grants less).
   */
  unreadableRestrictions: SettingsIssue[];
}

export function rulesFromSettingsFile(file: SettingsFile): ParsedRules {
  const rules = emptyRules();
  const issues: SettingsIssue[] = [];
  const unreadableRestrictions: SettingsIssue[] = [];
  const permissions = file.settings.permissions;
  if (!permissions) return { rules, issues, unreadableRestrictions };
  const lineAt = lineFinder(file.text);
  for (const behavior of RULE_BEHAVIORS) {
    const list = permissions[behavior];
    if (!list) continue;
    // Each rule's line: search the file text for the rule strings in order, after the list's key.
    let searchFrom = Math.max(0, file.text.indexOf(JSON.stringify(behavior)));
    for (const text of list) {
      const at = file.text.indexOf(JSON.stringify(text), searchFrom);
      const line = at === -1 ? undefined : lineAt(at);
      if (at !== -1) searchFrom = at + 1;
      const parsed = parseRule(text);
      if (!parsed.ok) {
        if (behavior === "allow") {
          issues.push({ file: file.path, line, message: `malformed allow rule skipped: ${parsed.error}` });
        } else {
          const issue = {
            file: file.path,
            line,
            message: `malformed ${behavior} rule: ${parsed.error} (a ${behavior} rule can only be skipped unsafely)`,
          };
          issues.push(issue);
          unreadableRestrictions.push(issue);
        }
        continue;
      }
      rules[behavior].push({
        source: file.source,
        behavior,
        value: parsed.value,
        file: file.path,
        line,
        root: file.root,
      });
    }
  }
  return { rules, issues, unreadableRestrictions };
}

/** Rules given as strings outside a file: CLI flags (lists as users type them) or session rules. */
export function rulesFromStrings(
  lists: Partial<Record<PermissionBehavior, readonly string[]>>,
  source: PermissionRuleSource,
  root: string,
  label: string,
): ParsedRules {
  const rules = emptyRules();
  const issues: SettingsIssue[] = [];
  const unreadableRestrictions: SettingsIssue[] = [];
  for (const behavior of RULE_BEHAVIORS) {
    for (const entry of lists[behavior] ?? []) {
      for (const text of source === "cliArg" ? splitRuleList(entry) : [entry]) {
        const parsed = parseRule(text);
        if (!parsed.ok) {
          const issue = { file: label, message: `malformed ${behavior} rule skipped: ${parsed.error}` };
          issues.push(issue);
          if (behavior !== "allow") unreadableRestrictions.push(issue);
          continue;
        }
        rules[behavior].push({ source, behavior, value: parsed.value, root });
      }
    }
  }
  return { rules, issues, unreadableRestrictions };
}

/** Merges rule sets and orders each list by source precedence (stable within a source). */
export function mergeRules(...sets: RulesByBehavior[]): RulesByBehavior {
  const merged = emptyRules();
  for (const behavior of RULE_BEHAVIORS) {
    const all = sets.flatMap((set) => set[behavior]);
    merged[behavior] = sortByPrecedence(all);
  }
  return merged;
}

function sortByPrecedence(rules: PermissionRule[]): PermissionRule[] {
  const rank = (rule: PermissionRule) => SOURCE_PRECEDENCE.indexOf(rule.source);
  return rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => rank(a.rule) - rank(b.rule) || a.index - b.index)
    .map((entry) => entry.rule);
}
