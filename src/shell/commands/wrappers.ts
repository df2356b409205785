// Peels the commands that only run another command (`timeout 5 rm`, `sudo rm`, `xargs rm`,
// `sh -c 'rm'`) so rules meet the command bash really runs. Each layer is kept as a view: deny
// rules are checked against every view, allow rules only through transparent wrappers.

import { commandBaseName, type Field, parseArgs } from "../words/index.js";
import { afterOptions, LOOSE_WRAPPERS, SHELLS, STDIN_REASON, type Step, shellStep, WRAPPERS } from "./wrapper-steps.js";

export interface CommandView {
  words: Field[];
  /** Wrappers peeled off to reach this view, outermost first. */
  wrappers: string[];
  /** Every wrapper so far runs its command unchanged, so the inner command's allow rule may apply. */
  transparent: boolean;
}

export interface Unwrapping {
  views: CommandView[];
  /** Literal scripts the command hands to a shell (`sh -c`, `eval`, `script -c`, `su -c`...). */
  nestedScripts: string[];
  /** Commands run by find's -exec/-ok family. */
  nestedCommands: Field[][];
  /** Why the code run cannot be known from the text (`sh "$X"`, `bash script.sh`), if so. */
  opaque: string | undefined;
  /** Extra command starts to test deny rules against when a wrapper's options were not understood. */
  denyCandidates: Field[][];
  /** A shell that runs whatever arrives on its standard input (`sh`, `bash -s`). */
  runsStdin: boolean;
}

export function unwrapCommand(words: Field[]): Unwrapping {
  const result: Unwrapping = {
    views: [],
    nestedScripts: [],
    nestedCommands: [],
    opaque: undefined,
    denyCandidates: [],
    runsStdin: false,
  };
  let current = words;
  let wrappers: string[] = [];
  let transparent = true;
  for (let depth = 0; depth < 16 && current.length > 0; depth += 1) {
    result.views.push({ words: current, wrappers, transparent });
    const head = current[0] as Field;
    if (!head.literal) break;
    const name = commandBaseName(head.value);
    collectFindExec(name, current, result);
    collectGitShellAliases(name, current, result);
    collectPackageRunnerCalls(name, current, result);
    if (SHELLS.has(name)) {
      const step = shellStep(current, 0);
      applyScriptStep(step, result);
      break;
    }
    const loose = LOOSE_WRAPPERS[name];
    if (loose !== undefined) {
      for (let k = 1; k < current.length; k += 1) result.denyCandidates.push(current.slice(k));
      const step = afterOptions(current, 0, {}, false, loose);
      if (step.kind !== "inner") break;
      wrappers = [...wrappers, name];
      transparent = false;
      current = current.slice(step.index);
      continue;
    }
    const handler = WRAPPERS[name];
    if (!handler) break;
    const step = handler(current, 0);
    if (step.kind === "inner") {
      // A word taken for an option value might really be the command (an option we read
      // as taking a value may not): deny rules are tested from each of those words too.
      for (let k = 2; k < step.index; k += 1) result.denyCandidates.push(current.slice(k));
      wrappers = [...wrappers, name];
      transparent = transparent && step.transparent;
      current = current.slice(step.index);
      continue;
    }
    applyScriptStep(step, result);
    break;
  }
  return result;
}

function applyScriptStep(step: Step, result: Unwrapping): void {
  if (step.kind === "opaque" && step.reason === STDIN_REASON) result.runsStdin = true;
  if (step.kind === "script") {
    if (step.script.literal) result.nestedScripts.push(step.script.value);
    else result.opaque = "a shell is given a script known only at run time";
  } else if (step.kind === "opaque") result.opaque = step.reason;
}

const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function collectFindExec(name: string, words: Field[], result: Unwrapping): void {
  if (name !== "find") return;
  for (let i = 1; i < words.length; i += 1) {
    if (!FIND_EXEC.has(words[i]?.value ?? "")) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && words[end]?.value !== ";" && words[end]?.value !== "+") end += 1;
    if (end > start) result.nestedCommands.push(words.slice(start, end));
    i = end;
  }
}

/** `git -c alias.x='!cmd' x` runs cmd through a shell. */
function collectGitShellAliases(name: string, words: Field[], result: Unwrapping): void {
  if (name !== "git") return;
  for (let i = 1; i < words.length - 1; i += 1) {
    if (words[i]?.value !== "-c") continue;
    const setting = words[i + 1] as Field;
    const match = /^alias\.[^=]+=!(.*)$/s.exec(setting.value);
    if (!match) continue;
    if (setting.literal) result.nestedScripts.push(match[1] ?? "");
    else result.opaque = "a git alias runs a shell command known only at run time";
  }
}

/**
 * `npx -c 'script'` and `npm exec -c 'script'` (`--call`) hand the string to a shell. (A package
 * they run otherwise is a node_modules binary, not a command to peel.)
 */
function collectPackageRunnerCalls(name: string, words: Field[], result: Unwrapping): void {
  const start = name === "npx" ? 1 : name === "npm" && ["exec", "x"].includes(words[1]?.value ?? "") ? 2 : 0;
  if (start === 0) return;
  const parsed = parseArgs(words, start, {
    shortWithValue: "cpw",
    longWithValue: ["call", "package", "workspace"],
    stopAtOperand: true,
  });
  for (const option of parsed.options) {
    if (option.flag !== "-c" && !option.flag.startsWith("--call")) continue;
    if (typeof option.value !== "object") continue;
    if (option.value.literal) result.nestedScripts.push(option.value.value);
    else result.opaque = "a package runner is given a shell command known only at run time";
  }
}
