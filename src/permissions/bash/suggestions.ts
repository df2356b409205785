// The rule offered with a prompt ("yes, and don't ask again for ..."): a two-word prefix such as
// `git commit` where a prefix is safe (three for a package script: `npm run build`), else the exact command (as Claude Code offers
// it). Never a rule wider than the command: never the whole tool, and never a prefix naming a
// program that runs other code (shells, wrappers like sudo, env and xargs, interpreters like node
// and python3, runners like npx and `uv run`: the shell analysis's own list, codeRunnerReason).
// An exact rule (`Bash(node --test test/)`) allows only that command line, words compared one by
// one, so it is offered for those programs too: the person approves what they were shown, and
// the test run a host approves "always" stops asking. When a part has neither (a word known only
// at run time, a quoted `*`, a `?` or `[` glob, an unsafe variable assignment), no rule is offered:
// the person can still allow the call once. A `*` glob as written (`ls *.txt`) is offered exactly,
// each `*` spelled `\*` (bash/rules.ts): the rule allows that glob, not any text in its place.

import { type CommandPart, codeRunnerReason, isSafeEnvVar } from "../../shell/commands/index.js";
import type { PermissionUpdate } from "../../tool/permission-types.js";

/**
 * Programs that delete, overwrite or kill whatever they are given: "don't ask again" for one
 * `rm -rf build` must not become `Bash(rm:*)`, every deletion from then on. These are offered as
 * the exact command only.
 */
const DESTRUCTIVE = new Set([
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "dd",
  "truncate",
  "mv",
  "cp",
  "ln",
  "install",
  "chmod",
  "chown",
  "chgrp",
  "chattr",
  "kill",
  "pkill",
  "killall",
  "wipefs",
  "mkfs",
  "fdisk",
  "parted",
  "shutdown",
  "reboot",
  "crontab",
]);

function isDestructive(program: string): boolean {
  return DESTRUCTIVE.has(program) || program.startsWith("mkfs.");
}

/** The prefix to suggest for one part, from its words as written (safe env prefixes dropped). */
export function suggestedPrefixOf(part: CommandPart): string | undefined {
  if (part.command.assignments.some((a) => !isSafeEnvVar(a.name))) return undefined;
  const words = part.command.words;
  const first = words[0];
  if (!first?.literal || first.glob || first.value.includes("/")) return undefined;
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(first.value) || isDestructive(first.value)) return undefined;
  const second = words[1];
  // A word known only at run time could be the subcommand that runs code (`npm "$X"`).
  if (second !== undefined && !second.literal && codeRunnerReason([first.value, ""]) !== undefined) return undefined;
  if (codeRunnerReason(words.slice(0, 2).map((word) => word.value)) !== undefined) return undefined;
  const subcommand =
    second?.literal && !second.glob && /^[a-z][a-z0-9_-]*$/.test(second.value) ? second.value : undefined;
  if (!subcommand) return first.value;
  // `npm run build`: the script's name too, or one answer would allow every script package.json
  // holds or will hold (`npm run:*`), as Claude Code narrows it.
  if (runsPackageScript(first.value, subcommand)) {
    const script = words[2];
    if (script === undefined) return `${first.value} ${subcommand}`;
    if (!script.literal || script.glob || !SCRIPT_NAME.test(script.value)) return undefined;
    return `${first.value} ${subcommand} ${script.value}`;
  }
  return `${first.value} ${subcommand}`;
}

/** The package managers' "run a package.json script" subcommands. */
const SCRIPT_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  npm: ["run", "run-script", "rum", "urn"],
  pnpm: ["run", "run-script"],
  yarn: ["run"],
  bun: ["run"],
};

/** A script name a rule's prefix can hold as one word (`build`, `test:unit`, `lint-fix`). */
const SCRIPT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:@+-]*$/;

function runsPackageScript(program: string, subcommand: string): boolean {
  return SCRIPT_RUNNERS[program]?.includes(subcommand) === true;
}

/**
 * The exact-command rule content for one part: its words as bash receives them, quoted so that
 * the rule's own word splitting gives them back; an unquoted `*` glob as `\*`. Undefined when no
 * rule can say exactly that command: a word known only at run time, a `?` or `[` glob or one
 * partly quoted, a quoted `*` (a rule reads it as a wildcard), a word no rule quoting can hold, an unsafe assignment, or a part
 * no allow rule clears (its unwrapping is opaque: `bash deploy.sh`). Nor for
 * a program that runs other code while the script feeds standard input (a pipe, `<`, a heredoc:
 * `curl … | sh`, `python3 <<EOF`, `ls | xargs rm`): a rule matches the words only, so `Bash(sh)`
 * would then approve whatever any later command pipes into it.
 */
export function exactCommandOf(part: CommandPart, scriptRedirectsInput: boolean): string | undefined {
  if (part.command.assignments.some((a) => !isSafeEnvVar(a.name))) return undefined;
  // What a rule can never allow (a shell running a script file): offering one would not stop the question.
  if (part.unwrapping.opaque) return undefined;
  const words = part.command.words;
  if (words.length === 0) return undefined;
  const readsInput =
    scriptRedirectsInput || part.command.stdinFrom !== undefined || part.command.stdinText !== undefined;
  if (readsInput && codeRunnerReason(words.slice(0, 2).map((word) => word.value)) !== undefined) return undefined;
  const spelled: string[] = [];
  for (const word of words) {
    if (!word.literal || word.value.includes("\n")) return undefined;
    if (word.glob) {
      // A glob as written (`*.txt`): the rule spells each `*` as `\*`, which matches this very
      // glob and nothing wider. Only a wholly unquoted `*` glob: a rule cannot tell a quoted star
      // from an expanded one inside one word, nor spell `?` or `[...]`.
      if (word.quoted || !/^[^\s"'\\?[\]]+$/.test(word.value)) return undefined;
      spelled.push(word.value.replaceAll("*", "\\*"));
      continue;
    }
    if (word.value.includes("*")) return undefined;
    if (/^[^\s"'\\]+$/.test(word.value)) spelled.push(word.value);
    else if (!word.value.includes("'")) spelled.push(`'${word.value}'`);
    else return undefined;
  }
  return spelled.join(" ");
}

/** The rule for one part: its safe prefix (`npm run:*`), else its exact command, else none. */
function ruleContentOf(part: CommandPart, scriptRedirectsInput: boolean): string | undefined {
  const prefix = suggestedPrefixOf(part);
  return prefix === undefined ? exactCommandOf(part, scriptRedirectsInput) : `${prefix}:*`;
}

/**
 * The rules offered for the parts that asked: one each, all or none (a rule set that leaves a
 * part out would not stop the question). `scriptRedirectsInput`: the script has an input
 * redirection somewhere (`<`, `<<`, `<<<`), possibly on a group around the part.
 */
export function suggestionsFor(parts: CommandPart[], scriptRedirectsInput = false): PermissionUpdate[] {
  const contents: string[] = [];
  for (const part of parts) {
    const content = ruleContentOf(part, scriptRedirectsInput);
    if (content === undefined) return [];
    if (!contents.includes(content)) contents.push(content);
  }
  if (contents.length === 0 || contents.length > 5) return [];
  return [
    {
      type: "addRules",
      behavior: "allow",
      rules: contents.map((ruleContent) => ({ toolName: "Bash", ruleContent })),
      destination: "localSettings",
    },
  ];
}

/**
 * The prefix for a raw command string without parsing it: the first line of a multi-line
 * command, the text before `<<` of a heredoc, then its first two words.
 */
export function suggestedPrefixOfText(command: string): string | undefined {
  const firstLine = command.split("\n")[0] ?? "";
  const beforeHeredoc = firstLine.split("<<")[0] ?? "";
  const words = beforeHeredoc
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || !isSafeEnvVar(w.split("=")[0] ?? ""));
  const first = words[0];
  if (!first || !/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(first) || isDestructive(first)) return undefined;
  // Unparsed text: quotes and escapes are not removed, so a quoted word is never a safe prefix.
  if (codeRunnerReason(words.slice(0, 2)) !== undefined || /["'\\$`]/.test(words[1] ?? "")) return undefined;
  const second = words[1];
  if (!second || !/^[a-z][a-z0-9_-]*$/.test(second)) return first;
  if (!runsPackageScript(first, second)) return `${first} ${second}`;
  const script = words[2];
  if (script === undefined) return `${first} ${second}`;
  return SCRIPT_NAME.test(script) ? `${first} ${second} ${script}` : undefined;
}
