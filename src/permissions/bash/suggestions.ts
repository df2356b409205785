// The rule offered with a prompt ("yes, and don't ask again for ..."): a two-word prefix such as
// `npm run` or `git commit`. Never a prefix that would approve arbitrary code: shells, sudo, env,
// xargs, eval and the like run whatever follows them.

import { type CommandPart, isSafeEnvVar } from "../../shell/commands/index.js";
import type { PermissionUpdate } from "../../tool/permission-types.js";

const NEVER_PREFIX = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "csh",
  "tcsh",
  "mksh",
  "ash",
  "sudo",
  "doas",
  "pkexec",
  "su",
  "env",
  "xargs",
  "eval",
  "exec",
  "source",
  ".",
  "command",
  "builtin",
  "nohup",
  "time",
  "timeout",
  "nice",
  "ionice",
  "stdbuf",
  "script",
  "watch",
  "flock",
  "busybox",
  "setsid",
  "unbuffer",
  "noglob",
  "python",
  "python3",
  "node",
  "perl",
  "ruby",
  "php",
  "osascript",
  "ssh",
  "find",
  "awk",
  "gawk",
]);

/** The prefix to suggest for one part, from its words as written (safe env prefixes dropped). */
export function suggestedPrefixOf(part: CommandPart): string | undefined {
  if (part.command.assignments.some((a) => !isSafeEnvVar(a.name))) return undefined;
  const words = part.command.words;
  const first = words[0];
  if (!first?.literal || first.glob || first.value.includes("/") || NEVER_PREFIX.has(first.value)) return undefined;
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(first.value)) return undefined;
  const second = words[1];
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
  if (!first || NEVER_PREFIX.has(first) || !/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(first)) return undefined;
  const second = words[1];
  return second && /^[a-z][a-z0-9_-]*$/.test(second) ? `${first} ${second}` : first;
}
