// What the Bash tool's post-processing needs to know of a command, read from its analysis rather
// than its raw text: the programs it runs (wrappers peeled, so `timeout 60 npm test` runs npm) and
// the git subcommands among them (`git -C repo commit` commits). Not a security decision: these
// facts only choose what the model is told and whether a slow command is backgrounded or stopped.
import { commandBaseName, type Field } from "../words/index.js";
import type { ScriptAnalysis } from "./analyze.js";

export interface CommandFacts {
  /** Base names of every program the command runs, innermost view of each simple command. */
  programs: string[];
  /** git's subcommand for each `git` the command runs (`commit`, `push`...), lower-cased. */
  gitSubcommands: string[];
}

/** git's global options that take their value as the next word. */
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]);

function gitSubcommand(words: Field[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]?.value ?? "";
    if (GIT_OPTIONS_WITH_VALUE.has(word)) {
      i++;
      continue;
    }
    if (word.startsWith("-")) continue;
    return word.toLowerCase();
  }
  return undefined;
}

export function commandFacts(analysis: ScriptAnalysis): CommandFacts {
  const programs: string[] = [];
  const gitSubcommands: string[] = [];
  for (const part of analysis.parts) {
    const views = part.unwrapping.views;
    const words = views.at(-1)?.words ?? part.command.words;
    const first = words[0];
    if (!first) continue;
    const name = commandBaseName(first.value);
    programs.push(name);
    if (name === "git") {
      const sub = gitSubcommand(words);
      if (sub) gitSubcommands.push(sub);
    }
  }
  // Text the grammar could not parse still names programs (fail towards telling more).
  for (const words of analysis.fallbackCommands) {
    const first = words[0];
    if (first) programs.push(commandBaseName(first.value));
  }
  return { programs, gitSubcommands };
}
