// Aliases from git's configuration files, for deny rules: with `Bash(git push:*)` denied and
// `alias.p = push` in a repository's `.git/config` (or the user's ~/.gitconfig), `git p` runs
// `git push`. The words say nothing of it, so the alias is read from the configuration git would
// use in that folder and the command is matched again as git would run it. A shell alias
// (`alias.x = !rm -rf build`) runs a program the rule cannot be matched against word by word: the
// caller asks. Aliases defined inline with `-c` are the analysis' business (rules.ts, wrappers.ts).
import { readGitConfigSync } from "../../fs/git-config-read.js";
import { resolveWordPath } from "../../shell/commands/index.js";
import { locateGitSubcommand } from "../../shell/read-only/index.js";
import { commandBaseName, type Field } from "../../shell/words/index.js";
import { configFilesOf, repositoryAt, stampOf } from "../filesystem/git-repository.js";

export type GitAliasExpansion =
  | { kind: "words"; alias: string; words: Field[] }
  | { kind: "shell"; alias: string; command: string }
  | { kind: "unknown"; reason: string };

interface CachedAliases {
  stamp: string;
  aliases: Map<string, string> | undefined;
}

const cache = new Map<string, CachedAliases>();

/**
 * What `git ...` in `cwd` runs when its subcommand is an alias from the configuration files, or
 * undefined when it is not one (or the words are not a git command).
 */
export function expandConfiguredGitAlias(words: Field[], cwd: string | undefined): GitAliasExpansion | undefined {
  const head = words[0];
  if (!head?.literal || commandBaseName(head.value) !== "git") return undefined;
  const invocation = locateGitSubcommand(words);
  const sub = words[invocation.subcommandIndex];
  if (!sub?.literal) return undefined;
  let dir = cwd;
  for (const directory of invocation.directories) dir = dir === undefined ? undefined : resolveWordPath(directory, dir);
  if (dir === undefined) return { kind: "unknown", reason: "git runs in a folder known only at run time" };
  const aliases = aliasesAt(dir);
  if (aliases === undefined) return { kind: "unknown", reason: "git's configuration could not be read" };
  const value = aliases.get(sub.value.toLowerCase());
  if (value === undefined) return undefined;
  if (value.startsWith("!")) return { kind: "shell", alias: sub.value, command: value.slice(1).trim() };
  const expanded = value
    .split(/\s+/)
    .filter(Boolean)
    .map((text): Field => ({ value: text, literal: true, glob: false, quoted: false, source: text }));
  return {
    kind: "words",
    alias: sub.value,
    words: [
      head,
      ...words.slice(1, invocation.subcommandIndex),
      ...expanded,
      ...words.slice(invocation.subcommandIndex + 1),
    ],
  };
}

/** Every `alias.*` git would see in `dir` (all scopes), cached until a config file changes. */
function aliasesAt(dir: string): Map<string, string> | undefined {
  const repository = repositoryAt(dir);
  const key = repository?.top ?? "";
  const stamp = repository
    ? stampOf(configFilesOf(repository))
    : stampOf(configFilesOf({ top: dir, gitDir: dir, commonDir: dir }));
  const cached = cache.get(key);
  if (cached && cached.stamp === stamp) return cached.aliases;
  const aliases = readAliases(repository?.top ?? dir);
  cache.set(key, { stamp, aliases });
  return aliases;
}

function readAliases(dir: string): Map<string, string> | undefined {
  let output: string;
  try {
    // Reading configuration runs nothing of the repository's choosing.
    output = readGitConfigSync(dir, ["-z", "--get-regexp", "^alias\\."]);
  } catch (error) {
    // Exit status 1: no alias is set anywhere.
    if ((error as { status?: number }).status === 1) return new Map();
    return undefined;
  }
  const aliases = new Map<string, string>();
  for (const entry of output.split("\0")) {
    const newline = entry.indexOf("\n");
    if (newline === -1) continue;
    aliases.set(entry.slice("alias.".length, newline).toLowerCase(), entry.slice(newline + 1));
  }
  return aliases;
}
