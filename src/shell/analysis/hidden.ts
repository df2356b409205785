// What one simple command runs that the analysis cannot read, and the text inside that code on
// which deny rules may still be tried. Assignments count too: a shell started with PROMPT_COMMAND,
// BASH_ENV or ENV set runs that code or file, and PATH or LD_PRELOAD change which program a name
// runs.
import { hiddenCodeOf, isDangerousEnvVar, stringLiterals, type Unwrapping } from "../commands/index.js";
import type { SimpleCommand } from "../parse/index.js";
import { sedScriptsFromOptions, unsafeSedCommand } from "../read-only/index.js";

export interface HiddenOutcome {
  hidden: string | undefined;
  /** Text that may be shell code (an inline program's strings, a prompt command), for deny rules. */
  denyScripts: string[];
}

/** Variables whose value a shell runs as commands (the prompt ones expand `$(...)` each prompt). */
/** Also the variables naming a program that git, less or an editor start through a shell. */
const EXECUTED_VARIABLES =
  /^(PROMPT_COMMAND|PS[0-4]|(GIT_)?PAGER|EDITOR|VISUAL|GIT_SSH_COMMAND|GIT_EXTERNAL_DIFF|GIT_EDITOR)$/;
/** git configuration keys whose value git runs as a shell command. */
const GIT_COMMAND_KEYS =
  /(pager|editor|sshcommand|external|textconv|command|fsmonitor|program|helper|askpass|gitproxy|driver|clean|smudge|process|cmd)$/i;
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
  // `git -c core.pager='rm -rf x' -p log`: the value is a command git hands to a shell.
  git?.words.forEach((word, i) => {
    const setting = word.value === "-c" ? git.words[i + 1] : undefined;
    const match = setting?.literal ? /^([^=]+)=(.*)$/s.exec(setting.value) : null;
    if (match?.[1] && match[2] && GIT_COMMAND_KEYS.test(match[1])) denyScripts.push(match[2]);
  });
  // sed's `e` command and the `e` flag of `s` run shell commands.
  const sed = unwrapping.views.find((v) => v.words[0]?.literal && v.words[0].value === "sed");
  if (sed && !sed.words.some((w) => w.value === "--sandbox")) {
    for (const script of sedScriptsFromOptions(sed.words)) {
      if (!/runs/.test(unsafeSedCommand(script) ?? "")) continue;
      hidden ??= "sed runs a shell command from its script";
      denyScripts.push(...script.split(/[;\n]/).map((c) => c.replace(/^\s*[0-9$,/]*\s*e\s*/, "")));
    }
  }
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
