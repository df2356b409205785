// What an allow rule for a command's prefix does not grant. `Bash(sed -n:*)` names the printing
// sed the user had in mind, not `sed -n -i` rewriting files; `Bash(git diff:*)` not
// `git diff --output=...` writing one, nor `git -c core.pager=... diff` running a program;
// `Bash(cat:*)` not `cat ~/.ssh/id_rsa`, `Bash(tar:*)` not `tar -I sh`. The options that write, run
// or read secrets are the ones the read-only tables already know (../../shell/read-only/) and
// those that name a program to run (../../shell/commands/program-options.ts); a rule that spells the option itself
// (`Bash(sed -i:*)`) or the whole command (no `:*`) grants it.
import { programOptionOf, resolveWordPath } from "../../shell/commands/index.js";
import { classifyReadOnly } from "../../shell/read-only/index.js";
import type { Field } from "../../shell/words/index.js";
import { secretPathReason } from "../filesystem/index.js";
import { pathCandidates } from "./path-candidates.js";
import type { BashRule } from "./rules.js";

/** Why `rule`, which matched `words`, does not grant this command, or undefined when it does. */
export function beyondRule(rule: BashRule, words: Field[], cwd: string | undefined): string | undefined {
  if (!rule.prefix && !rule.wildcard) return undefined;
  const name = `Bash(${rule.rule.value.ruleContent})`;
  const verdict = classifyReadOnly(words);
  if (!verdict.readOnly && verdict.smuggled !== undefined && !ruleSpells(rule, verdict.smuggled)) {
    return `the rule ${name} does not cover \`${verdict.smuggled}\`: ${verdict.reason}`;
  }
  // Options of commands outside the read-only tables that start a program (`tar -I`, `rsync -e`).
  const program = programOptionOf(words);
  if (program && !ruleSpells(rule, program.word)) {
    return `the rule ${name} does not cover \`${program.word}\`: ${program.reason}`;
  }
  for (const word of words.slice(1)) {
    for (const candidate of pathCandidates(word)) {
      const absolute = resolveWordPath(candidate, cwd);
      const secret = absolute === undefined ? undefined : secretPathReason(absolute);
      if (secret && !ruleSpells(rule, word.value))
        return `the rule ${name} does not cover reading ${word.value}, which holds secrets (${secret})`;
    }
  }
  return undefined;
}

/** Whether the rule's own words name the option (`Bash(sed -i:*)` names `-i`, `Bash(sort -ro:*)` names `-o`). */
function ruleSpells(rule: BashRule, option: string): boolean {
  const optionName = option.split("=")[0] ?? option;
  return rule.words.slice(1).some((word) => {
    if (word === option || (optionName.startsWith("--") && word.split("=")[0] === optionName)) return true;
    return /^-[A-Za-z]$/.test(option) && /^-[A-Za-z]+$/.test(word) && word.includes(option.slice(1));
  });
}
