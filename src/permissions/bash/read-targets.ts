// Which files a command reads, as far as its words say: the read-only classifier's paths (cat,
// head, grep's files, sort's inputs...), git's explicit files (`git diff --no-index a b`,
// `git show REV:path`, pathspecs after `--`), cp/rsync/scp sources, and the folders a recursive
// search reads whole (`grep -r`, `rg`, `ag`, `git grep`; with no folder named, the current one).
import type { ReadOnlyVerdict } from "../../shell/read-only/index.js";
import { commandBaseName, type Field, parseArgs } from "../../shell/words/index.js";

export interface ReadTargets {
  files: Field[];
  folders: Field[];
  /** The command searches the folder it runs in (no folder named). */
  searchesHere: boolean;
}

const RECURSIVE_ALWAYS = new Set(["rg", "ag", "ack"]);
const GREPS = new Set(["grep", "egrep", "fgrep"]);

export function readTargetsOf(words: Field[], verdict: ReadOnlyVerdict): ReadTargets {
  const name = commandBaseName(words[0]?.literal ? words[0].value : "");
  const files = verdict.readOnly ? [...verdict.paths] : [];
  const targets: ReadTargets = { files, folders: [], searchesHere: false };
  if (name === "git") return gitTargets(words, targets);
  if (name === "cp" || name === "rsync" || name === "scp" || name === "install") {
    const operands = parseArgs(words, 1, {
      shortWithValue: "tSe",
      longWithValue: ["target-directory", "suffix", "rsh"],
    }).operands;
    // The last operand is the destination (checked as a write); the others are read, whole if -r.
    const recursive = words.some(
      (w) => /^-[a-zA-Z]*[rRa]/.test(w.value) || w.value === "--recursive" || w.value === "--archive",
    );
    for (const source of operands.slice(0, -1)) (recursive ? targets.folders : targets.files).push(source);
    return targets;
  }
  const recursive =
    RECURSIVE_ALWAYS.has(name) ||
    (GREPS.has(name) &&
      words.some(
        (w) =>
          /^-[a-zA-Z]*[rR]/.test(w.value) || w.value.startsWith("--recursive") || w.value === "--dereference-recursive",
      )) ||
    (name === "diff" && words.some((w) => /^-[a-zA-Z]*r/.test(w.value) || w.value === "--recursive"));
  if (recursive && verdict.readOnly) {
    // Every named path may be a folder read whole.
    targets.folders.push(...verdict.paths);
    if (verdict.paths.length === 0 && !words.some((w) => w.value === "--files" || w.value === "--type-list"))
      targets.searchesHere = true;
  }
  return targets;
}

function gitTargets(words: Field[], targets: ReadTargets): ReadTargets {
  const subIndex = words.findIndex(
    (w, i) => i > 0 && !w.value.startsWith("-") && words[i - 1]?.value !== "-C" && words[i - 1]?.value !== "-c",
  );
  const sub = words[subIndex]?.value;
  const args = subIndex === -1 ? [] : words.slice(subIndex + 1);
  if (sub === "grep") targets.searchesHere = true;
  const dashes = args.findIndex((w) => w.value === "--");
  if (dashes !== -1) targets.files.push(...args.slice(dashes + 1));
  if (sub === "diff" && args.some((w) => w.value === "--no-index")) {
    // Both sides are plain paths, folders compared whole.
    targets.folders.push(...args.filter((w) => !w.value.startsWith("-")));
  }
  for (const arg of args) {
    // `git show HEAD:config/credentials.yml` prints that file as committed.
    const blob = /^[^:\s]*:(?!\/)(.+)$/.exec(arg.value);
    if (blob?.[1] && (sub === "show" || sub === "cat-file")) targets.files.push({ ...arg, value: blob[1] });
  }
  return targets;
}
