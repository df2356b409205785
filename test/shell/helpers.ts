// Shared set-up for the shell tests: a real temporary project directory as the working
// directory, and rules written the way users write them (`Bash(git commit:*)`).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkBashCommandPermission } from "../../src/permissions/bash/check.js";
import { analyzeCommand } from "../../src/shell/analysis/index.js";
import type {
  PermissionBehavior,
  PermissionResult,
  PermissionRule,
  ToolPermissionContext,
} from "../../src/tool/permission-types.js";

export const project = mkdtempSync(join(tmpdir(), "warden-shell-test-"));

export interface RuleSet {
  allow?: string[];
  deny?: string[];
  ask?: string[];
}

export function rule(text: string, behavior: PermissionBehavior): PermissionRule {
  const content = /^Bash\((.*)\)$/s.exec(text)?.[1];
  return {
    source: "session",
    behavior,
    value: content === undefined ? { toolName: text } : { toolName: "Bash", ruleContent: content },
  };
}

export function contextWith(rules: RuleSet = {}, workingDirectories: string[] = [project]): ToolPermissionContext {
  return {
    mode: "default",
    workingDirectories,
    rules: {
      allow: (rules.allow ?? []).map((r) => rule(r, "allow")),
      deny: (rules.deny ?? []).map((r) => rule(r, "deny")),
      ask: (rules.ask ?? []).map((r) => rule(r, "ask")),
    },
    isBypassPermissionsModeAvailable: false,
  };
}

export function decide(command: string, rules: RuleSet = {}, cwd: string = project): Promise<PermissionResult> {
  return checkBashCommandPermission({ command, cwd, permissionContext: contextWith(rules) });
}

/** allow / deny / ask, with passthrough reported as the ask it becomes in default mode. */
export async function outcome(command: string, rules: RuleSet = {}, cwd: string = project): Promise<string> {
  const result = await decide(command, rules, cwd);
  return result.behavior === "passthrough" ? "ask" : result.behavior;
}

/** The argv of every simple command bash would run, as recovered. */
export async function recoveredCommands(command: string): Promise<string[][]> {
  const analysis = await analyzeCommand(command, project);
  return analysis.parts.map((p) => p.command.words.map((w) => (w.literal ? w.value : "<dynamic>")));
}

/** The innermost command each part runs once wrappers are peeled. */
export async function innermostCommands(command: string): Promise<string[][]> {
  const analysis = await analyzeCommand(command, project);
  return analysis.parts.map((p) => {
    const views = p.unwrapping.views;
    return (views[views.length - 1]?.words ?? []).map((w) => (w.literal ? w.value : "<dynamic>"));
  });
}
