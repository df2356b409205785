// Where deny rules meet a command: every view of each part (wrappers peeled), the words a wrapper
// may run, git aliases from the configuration, and what the quote-aware splitter recovers when
// the command cannot be analysed. A match denies; where the analysis cannot rule one out, it asks.
import type { ScriptAnalysis } from "../../shell/analysis/index.js";
import { unwrapCommand } from "../../shell/commands/index.js";
import { fallbackSimpleCommands } from "../../shell/parse/index.js";
import { classifyReadOnly } from "../../shell/read-only/index.js";
import type { Field } from "../../shell/words/index.js";
import type { PermissionResult, ToolPermissionContext } from "../../tool/permission-types.js";
import { ruleMatchesFlags } from "./flag-spellings.js";
import { expandConfiguredGitAlias } from "./git-config-aliases.js";
import { type BashRule, bashRulesOf, denyVariants, ruleMatchesWords } from "./rules.js";

/** A question no mode or allow rule settles (a safety check): the command needs a person. */
export function safetyAsk(reason: string): PermissionResult {
  return {
    behavior: "ask",
    message: `This command needs a human to look at it: ${reason}`,
    decisionReason: { type: "safetyCheck", reason },
  };
}

/**
 * Deny rules for a command too long to analyse: the quote-aware splitter still recovers its
 * simple commands, so padding a command cannot turn a deny into a question.
 */
export function denyWithoutAnalysis(command: string, context: ToolPermissionContext): PermissionResult | undefined {
  const denyRules = bashRulesOf(context).filter((r) => r.behavior === "deny");
  if (denyRules.length === 0) return undefined;
  const candidates: Field[][] = [];
  for (const words of fallbackSimpleCommands(command)) {
    const unwrapping = unwrapCommand(words);
    for (const view of unwrapping.views) candidates.push(view.words);
    candidates.push(...unwrapping.denyCandidates);
  }
  const denied = matchCandidates(denyRules, candidates);
  return denied ? denialOf(denied) : undefined;
}

export function denialOf(denied: { rule: BashRule; words: string }): PermissionResult {
  return {
    behavior: "deny",
    message: `Permission to run this command was denied by the rule Bash(${denied.rule.rule.value.ruleContent}) (it matches \`${denied.words}\`).`,
    decisionReason: { type: "rule", rule: denied.rule.rule },
  };
}

/** Deny rules against git aliases from the configuration files (`git p` with `alias.p = push`). */
export function configuredAliasDecision(analysis: ScriptAnalysis, denyRules: BashRule[]): PermissionResult | undefined {
  for (const part of analysis.parts) {
    for (const view of part.unwrapping.views) {
      const expansion = expandConfiguredGitAlias(view.words, part.command.cwd);
      if (expansion === undefined) continue;
      if (expansion.kind === "words") {
        const denied = matchCandidates(denyRules, [expansion.words]);
        if (denied) return denialOf(denied);
        continue;
      }
      const names = denyRules.map((r) => `Bash(${r.rule.value.ruleContent})`).join(", ");
      const what =
        expansion.kind === "shell"
          ? `the git alias \`${expansion.alias}\` runs the shell command \`${expansion.command}\` (from git's configuration)`
          : `${expansion.reason}, so what its aliases run is unknown`;
      return safetyAsk(`${what}, and deny rules are in force (${names})`);
    }
  }
  return undefined;
}

/**
 * A program the tables do not know as read-only may run its arguments as a command: a wrapper
 * they do not list (`chronic rm x`, `poetry run rm x`, `mise exec -- rm x`). When the words from
 * any later position match a deny rule (or an ask rule), nothing shows that it does not run them,
 * so the command is asked about (in every mode) rather than allowed. Only the command each part finally runs is
 * read so: a known wrapper's own command is in a view of its own, judged the same way.
 */
export function ruleWordsPassedOn(
  analysis: ScriptAnalysis,
  denyRules: BashRule[],
): { program: string; words: string; rule: BashRule; source: string } | undefined {
  for (const part of analysis.parts) {
    const run = part.unwrapping.views.at(-1)?.words;
    if (!run || run.length < 2 || classifyReadOnly(run).readOnly) continue;
    for (let start = 1; start < run.length; start += 1) {
      const match = matchCandidates(denyRules, [run.slice(start)]);
      if (match) return { program: run[0]?.value ?? "", ...match, source: part.command.source };
    }
  }
  return undefined;
}

function matchCandidates(rules: BashRule[], candidates: Field[][]): { rule: BashRule; words: string } | undefined {
  for (const words of candidates) {
    for (const variant of denyVariants(words)) {
      const rule = rules.find((r) => ruleMatchesWords(r, variant) || ruleMatchesFlags(r, variant));
      if (rule) return { rule, words: words.map((w) => w.value).join(" ") };
    }
  }
  return undefined;
}

export function firstMatch(
  rules: BashRule[],
  analysis: ScriptAnalysis,
  includeFallback: boolean,
): { rule: BashRule; words: string } | undefined {
  if (rules.length === 0) return undefined;
  const candidates: Field[][] = [];
  for (const part of analysis.parts) {
    for (const view of part.unwrapping.views) candidates.push(view.words);
    candidates.push(...part.unwrapping.denyCandidates);
  }
  if (includeFallback) {
    for (const words of analysis.fallbackCommands) {
      const unwrapping = unwrapCommand(words);
      for (const view of unwrapping.views) candidates.push(view.words);
    }
  }
  return matchCandidates(rules, candidates);
}
