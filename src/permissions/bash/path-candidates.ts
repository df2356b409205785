// The paths one word of a command can name: the word itself, an option's `=value`
// (`--data-binary=@x`, `--key=deploy.pem`) and curl's `@file`. A word that starts from `$HOME`
// (`$HOME/.ssh/id_rsa`, `"${HOME}/.aws/credentials"`) counts as the same path under `~`: only
// rules and checks that make a decision stricter (deny and ask rules, secrets) look at it that way,
// since the script could have changed HOME before, and an allow must never rest on that guess.
import type { Field } from "../../shell/words/index.js";

export function pathCandidates(word: Field): Field[] {
  const known = word.literal ? word : homeResolved(word);
  if (known === undefined) return [];
  const values = [known.value];
  const eq = known.value.indexOf("=");
  if (known.value.startsWith("-") && eq !== -1) values.push(known.value.slice(eq + 1));
  for (const value of [...values]) if (value.startsWith("@")) values.push(value.slice(1));
  return values.filter((v) => v !== "" && !v.startsWith("-")).map((value) => ({ ...known, value }));
}

/** `$HOME` and `${HOME}` as `~`, where nothing else in the word is known only at run time. */
export function homeResolved(word: Field): Field | undefined {
  if (word.literal) return word;
  // Double quotes do not stop the expansion; single quotes would have made the word literal.
  const text = word.source.replace(/"/g, "");
  const value = text.replace(/(^|[=@])\$(\{HOME\}|HOME(?![A-Za-z0-9_]))/g, "$1~");
  if (value === text || /[$`\\'*?[]/.test(value)) return undefined;
  return { ...word, value, literal: true };
}

/** `$PWD/x`, `${PWD}/x` and `~+/x` as the folder the command runs in; undefined for other words. */
export function hereResolved(word: Field, cwd: string | undefined): Field | undefined {
  if (cwd === undefined) return undefined;
  if (word.literal) {
    if (word.value !== "~+" && !word.value.startsWith("~+/")) return undefined;
    return { ...word, value: cwd + word.value.slice(2) };
  }
  const text = word.source.replace(/"/g, "");
  const value = text.replace(/^\$(\{PWD\}|PWD(?![A-Za-z0-9_]))/, cwd);
  if (value === text || /[$`\\'*?[]/.test(value)) return undefined;
  return { ...word, value, literal: true };
}
