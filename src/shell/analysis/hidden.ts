// What one simple command runs that the analysis cannot read, and the text inside that code on
// which deny rules may still be tried. Assignments count too: a shell started with PROMPT_COMMAND,
// BASH_ENV or ENV set runs that code or file, and PATH or LD_PRELOAD change which program a name
// runs.
import { hiddenCodeOf, isDangerousEnvVar, stringLiterals, type Unwrapping } from "../commands/index.js";
import type { SimpleCommand } from "../parse/index.js";

export interface HiddenOutcome {
  hidden: string | undefined;
  /** Text that may be shell code (an inline program's strings, a prompt command), for deny rules. */
  denyScripts: string[];
}

/** Variables whose value a shell runs as commands (the prompt ones expand `$(...)` each prompt). */
const EXECUTED_VARIABLES = /^(PROMPT_COMMAND|PS[0-4])$/;
/** Builtins whose `NAME=value` arguments set variables or define aliases. */
const DECLARING = new Set(["export", "declare", "typeset", "local", "readonly", "env", "alias"]);

export function hiddenCodeOfPart(
  command: SimpleCommand,
  unwrapping: Unwrapping,
  stdinScript: string | undefined,
): HiddenOutcome {
  const denyScripts: string[] = [];
  // A shell reading stdin is hidden only while nobody showed what arrives there.
  let hidden = unwrapping.runsStdin ? (stdinScript === undefined ? unwrapping.opaque : undefined) : unwrapping.opaque;
  for (const view of unwrapping.views) {
    const code = hiddenCodeOf(view.words);
    if (!code) continue;
    hidden ??= code.reason;
    denyScripts.push(...code.denyScripts);
    if (code.fromStdin && command.stdinText !== undefined) denyScripts.push(...stringLiterals(command.stdinText));
  }
  const git = unwrapping.views.find((v) => v.words[0]?.literal && v.words[0].value === "git");
  const gitConfig = git?.words.findIndex(
    (w, i) => w.value.startsWith("--config-env") || (w.value === "-c" && !git.words[i + 1]?.literal),
  );
  if (gitConfig !== undefined && gitConfig !== -1)
    hidden ??= "git takes configuration (an alias, a program) known only at run time";
  const head = command.words[0];
  if (head && !head.literal) hidden ??= "the command name is known only at run time";
  for (const assignment of command.assignments) {
    if (isDangerousEnvVar(assignment.name)) hidden ??= `it sets ${assignment.name}, which changes what runs`;
    if (EXECUTED_VARIABLES.test(assignment.name)) denyScripts.push(assignment.value.value);
  }
  const name = head?.literal ? head.value : "";
  if (DECLARING.has(name)) {
    for (const word of command.words.slice(1)) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word.source);
      if (!match) continue;
      const variable = match[1] ?? "";
      const value = unquote(match[2] ?? "");
      if (name === "alias") {
        hidden ??= `alias ${variable} defines a command the shell may run later`;
        denyScripts.push(value);
      } else if (isDangerousEnvVar(variable)) {
        hidden ??= `it sets ${variable}, which changes what runs`;
        if (EXECUTED_VARIABLES.test(variable)) denyScripts.push(value);
      }
    }
  }
  return { hidden, denyScripts };
}

function unquote(text: string): string {
  if (text.length >= 2 && (text[0] === "'" || text[0] === '"') && text[text.length - 1] === text[0])
    return text.slice(1, -1);
  return text;
}
