// The repository's say on a read-only git command: where the repository's own config (or hooks)
// would make git start a program, the command is not read-only any more, whatever its words say.
import { resolveWordPath } from "../../shell/commands/index.js";
import { locateGitSubcommand } from "../../shell/read-only/index.js";
import { commandBaseName, type Field } from "../../shell/words/index.js";
import { repositoryExecutors } from "./git-config-executors.js";

/** Why this git command (classified read-only) may still run a program, or undefined. */
export function gitConfigObjection(words: Field[], cwd: string | undefined): string | undefined {
  const head = words[0];
  if (!head?.literal || commandBaseName(head.value) !== "git" || cwd === undefined) return undefined;
  // `git -C a -C b` runs in a/b: each -C is relative to the one before.
  let dir: string | undefined = cwd;
  for (const directory of locateGitSubcommand(words).directories) {
    dir = dir === undefined ? undefined : resolveWordPath(directory, dir);
  }
  if (dir === undefined) return "git runs in a folder known only at run time, whose config may name programs";
  const executors = repositoryExecutors(dir);
  if (executors.length === 0) return undefined;
  return `the repository's own git configuration makes git run programs (${executors.join(", ")})`;
}
