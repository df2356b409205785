// `git config` that sets something writes a config file without naming it: the repository's own
// (`.git/config`, where core.fsmonitor, core.hooksPath, aliases, filters and includes make git run
// code), unless the command names another scope. Such a write of a key that may run code is
// treated as a write to that file, so the protected-path rule (always ask, whatever the mode or
// allow rule) holds for `git config core.fsmonitor x` as for `echo ... >> .git/config`. Keys known
// to run nothing (`user.name`, `pull.rebase`...) stay ordinary commands, judged by the rules.
import { join } from "node:path";
import { resolveWordPath } from "../../shell/commands/index.js";
import { classifyReadOnly, locateGitSubcommand } from "../../shell/read-only/index.js";
import type { Field } from "../../shell/words/index.js";
import { repositoryAt } from "../filesystem/git-repository.js";

/** Keys that name no program and no other file: setting them cannot make git run anything. */
const INERT_KEYS: readonly RegExp[] = [
  /^user\.(name|email|signingkey)$/,
  /^(color|advice|column)\./,
  /^init\.defaultbranch$/,
  /^(pull|rebase)\.(rebase|ff|autostash|autosquash)$/,
  /^push\.(default|autosetupremote|followtags)$/,
  /^fetch\.(prune|prunetags)$/,
  /^commit\.(gpgsign|verbose)$/,
  /^branch\.[^.]+\.(remote|merge|rebase)$/,
  /^core\.(autocrlf|eol|filemode|ignorecase|quotepath|safecrlf)$/,
];

/** `git config` forms that only read or remove. */
const READS_OR_REMOVES =
  /^(--)?(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list|unset|unset-all|remove-section|-l)$/;

/**
 * The repository config a `git config` writes when what it sets may run code (`-C` applied; the
 * shared config of a worktree's repository), or undefined: not `git config`, a read or removal,
 * an inert key, or another scope named (`--global`, `--system`, `--file`: the home's `.gitconfig`
 * is protected on its own, a named file is judged as the path it is). A key known only at run
 * time, or `--edit`, counts as one that may run code.
 */
export function gitConfigWritten(words: readonly Field[], cwd: string | undefined): string | undefined {
  if (words[0]?.value !== "git" || cwd === undefined) return undefined;
  const invocation = locateGitSubcommand([...words]);
  if (words[invocation.subcommandIndex]?.value !== "config") return undefined;
  if (classifyReadOnly([...words]).readOnly) return undefined;
  const rest = words.slice(invocation.subcommandIndex + 1);
  const values = rest.map((word) => word.value);
  if (values.some((value) => /^--(global|system|file|blob)(=|$)|^-f$/.test(value))) return undefined;
  if (values.some((value) => READS_OR_REMOVES.test(value))) return undefined;
  if (!values.some((value) => value === "-e" || value === "--edit" || value === "edit")) {
    const positional = rest.filter((word) => !word.value.startsWith("-"));
    const key = positional[0]?.value === "set" ? positional[1] : positional[0];
    if (key?.literal && INERT_KEYS.some((pattern) => pattern.test(key.value.toLowerCase()))) return undefined;
  }
  let dir = cwd;
  for (const directory of invocation.directories) dir = resolveWordPath(directory, dir) ?? dir;
  return join(repositoryAt(dir)?.commonDir ?? join(dir, ".git"), "config");
}
