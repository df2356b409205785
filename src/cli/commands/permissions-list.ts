// `warden permissions list`: the permission context a session in this directory would start with,
// so users can see which rule comes from which file before wondering why a call was refused.
import { formatRule, RULE_BEHAVIORS } from "../../permissions/rules/index.js";
import type { PermissionBehavior, ToolPermissionContext } from "../../tool/permission-types.js";

interface RuleSummary {
  rule: string;
  source: string;
  file?: string;
  line?: number;
}

export interface ContextSummary {
  mode: string;
  workingDirectories: string[];
  managedRulesOnly: boolean;
  rules: Record<PermissionBehavior, RuleSummary[]>;
}

export function contextSummary(context: ToolPermissionContext): ContextSummary {
  const rules = { deny: [], ask: [], allow: [] } as Record<PermissionBehavior, RuleSummary[]>;
  for (const behavior of RULE_BEHAVIORS) {
    rules[behavior] = context.rules[behavior].map((r) => {
      const summary: RuleSummary = { rule: formatRule(r.value), source: r.source };
      if (r.file) summary.file = r.file;
      if (r.line !== undefined) summary.line = r.line;
      return summary;
    });
  }
  return {
    mode: context.mode,
    workingDirectories: context.workingDirectories,
    managedRulesOnly: context.managedRulesOnly === true,
    rules,
  };
}

export function contextText(context: ToolPermissionContext): string {
  const summary = contextSummary(context);
  const lines = [`mode: ${summary.mode}`, `working directories: ${summary.workingDirectories.join(", ")}`];
  if (summary.managedRulesOnly) lines.push("only managed policy rules apply (allowManagedPermissionRulesOnly)");
  for (const behavior of RULE_BEHAVIORS) {
    const list = summary.rules[behavior];
    lines.push(`${behavior} (${list.length}):`);
    const width = Math.max(0, ...list.map((r) => r.rule.length));
    for (const r of list) {
      const where = r.file ? `  ${r.file}${r.line !== undefined ? `:${r.line}` : ""}` : "";
      lines.push(`  ${r.rule.padEnd(width)}  ${r.source}${where}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
