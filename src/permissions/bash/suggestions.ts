// The rule offered with a prompt ("yes, and don't ask again for ..."): a two-word prefix such as
// `npm run` or `git commit`. Never a rule wider than the command: never the whole tool, and never
// a prefix naming a program that runs other code (shells, wrappers like sudo, env and xargs,
// interpreters like node and python3, runners like npx and `uv run`: the shell analysis's own
// list, codeRunnerReason). When no prefix is safe, no rule is offered: the person can still allow
// the call once.

import { type CommandPart, codeRunnerReason, isSafeEnvVar } from "../../shell/commands/index.js";
import type { PermissionUpdate } from "../../tool/permission-types.js";

/** The prefix to suggest for one part, from its words as written (safe env prefixes dropped). */
export function suggestedPrefixOf(part: CommandPart): string | undefined {
  if (part.command.assignments.some((a) => !isSafeEnvVar(a.name))) return undefined;
  const words = part.command.words;
  const first = words[0];
  if (!first?.literal || first.glob || first.value.includes("/")) return undefined;
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(first.value)) return undefined;
  const second = words[1];
  // A word known only at run time could be the subcommand that runs code (`npm "$X"`).
  if (second !== undefined && !second.literal && codeRunnerReason([first.value, ""]) !== undefined) return undefined;
  if (codeRunnerReason(words.slice(0, 2).map((word) => word.value)) !== undefined) return undefined;
  const subcommand =
    second?.literal && !second.glob && /^[a-z][a-z0-9_-]*$/.test(second.value) ? second.value : undefined;
  return subcommand ? `${first.value} ${subcommand}` : first.value;
}

export function suggestionsFor(parts: CommandPart[]): PermissionUpdate[] {
  const prefixes: string[] = [];
  for (const part of parts) {
    const prefix = suggestedPrefixOf(part);
    if (prefix === undefined) return [];
    if (!prefixes.includes(prefix)) prefixes.push(prefix);
  }
  if (prefixes.length === 0 || prefixes.length > 5) return [];
  return [
    {
      type: "addRules",
      behavior: "allow",
      rules: prefixes.map((prefix) => ({ toolName: "Bash", ruleContent: `${prefix}:*` })),
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
  if (!first || !/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(first)) return undefined;
  // Unparsed text: quotes and escapes are not removed, so a quoted word is never a safe prefix.
  if (codeRunnerReason(words.slice(0, 2)) !== undefined || /["'\\$`]/.test(words[1] ?? "")) return undefined;
  const second = words[1];
  return second && /^[a-z][a-z0-9_-]*$/.test(second) ? `${first} ${second}` : first;
}
