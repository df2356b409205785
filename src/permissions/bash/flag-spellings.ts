// A deny rule written with flags (`Bash(rm -rf:*)`) names what the flags do, not how they are
// spelled: `rm -fr`, `rm -r -f`, `rm -Rf`, `rm --recursive --force` and `rm x -rf` (GNU tools take
// options after operands) are the same command. Rules are compared on normalised flags: each short
// letter apart, long options and letter aliases mapped to the short letter they mean.
import type { Field } from "../../shell/words/index.js";
import { matchesLong } from "../../shell/words/index.js";
import type { BashRule } from "./rules.js";

/** Per command (and git subcommand): long option → the short letter it means, and letter aliases. */
const SAME_AS: Record<string, { long?: Record<string, string>; letters?: Record<string, string> }> = {
  rm: { long: { recursive: "r", force: "f", dir: "d", verbose: "v", interactive: "i" }, letters: { R: "r" } },
  cp: { long: { recursive: "r", force: "f", archive: "a", verbose: "v" }, letters: { R: "r" } },
  mv: { long: { force: "f", verbose: "v" } },
  rmdir: { long: { parents: "p" } },
  chmod: { long: { recursive: "R" } },
  chown: { long: { recursive: "R" } },
  chgrp: { long: { recursive: "R" } },
  shred: { long: { remove: "u", force: "f", zero: "z" } },
  "git push": { long: { force: "f", delete: "d", all: "", tags: "" } },
  "git clean": { long: { force: "f", dry_run: "n" } },
  "git branch": { long: { delete: "d", force: "f" } },
  "git checkout": { long: { force: "f" } },
  "git reset": {},
};

interface Spelled {
  head: string[];
  flags: Set<string>;
  operands: string[];
}

/** Splits words into the command's head (name and subcommand words), flag set and operands. */
function spell(words: readonly string[], headLength: number): Spelled {
  const head = words.slice(0, headLength);
  const table = SAME_AS[head.join(" ")] ?? SAME_AS[head[0] ?? ""] ?? {};
  const flags = new Set<string>();
  const operands: string[] = [];
  let onlyOperands = false;
  for (const word of words.slice(headLength)) {
    if (onlyOperands || word === "-" || !word.startsWith("-")) {
      operands.push(word);
      continue;
    }
    if (word === "--") {
      onlyOperands = true;
      continue;
    }
    if (word.startsWith("--")) {
      const name = word.slice(2).split("=")[0] ?? "";
      const full = Object.keys(table.long ?? {}).find((long) => matchesLong(`--${name}`, long.replace(/_/g, "-"), 3));
      const letter = full === undefined ? undefined : table.long?.[full];
      flags.add(letter ? `-${letter}` : `--${full?.replace(/_/g, "-") ?? name}`);
      continue;
    }
    for (const letter of word.slice(1)) flags.add(`-${table.letters?.[letter] ?? letter}`);
  }
  return { head, flags, operands };
}

/** Whether a rule with flags in it meets these words on normalised flags (deny and ask rules). */
export function ruleMatchesFlags(rule: BashRule, words: Field[]): boolean {
  if (rule.wildcard || !rule.words.some((w, i) => i > 0 && w.startsWith("-"))) return false;
  if (!words.every((w) => w.literal)) return false;
  const headLength = rule.words.findIndex((w, i) => i > 0 && w.startsWith("-"));
  if (words.length < headLength) return false;
  const values = words.map((w) => w.value);
  const wanted = spell(rule.words, headLength);
  const given = spell(values, headLength);
  if (wanted.head.join("\0") !== given.head.join("\0")) return false;
  for (const flag of wanted.flags) if (!given.flags.has(flag)) return false;
  if (!rule.prefix) {
    return (
      wanted.flags.size === given.flags.size &&
      wanted.operands.length === given.operands.length &&
      wanted.operands.every((operand, i) => given.operands[i] === operand)
    );
  }
  return wanted.operands.every((operand, i) => given.operands[i] === operand);
}
