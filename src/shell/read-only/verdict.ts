import type { Field } from "../words/index.js";

/** Whether one command (already unwrapped) has no effect beyond its output. */
export type ReadOnlyVerdict =
  | {
      readOnly: true;
      /** Operands naming files it reads: they must lie inside the working directories. */
      paths: Field[];
    }
  | {
      readOnly: false;
      reason: string;
      /**
       * Set when what makes the command more than a reader is an option or argument that writes a
       * file, runs a program or reads secrets (`sed -i`, `sort -o`, `git -c`, `find -delete`): the
       * word as written. An allow rule for the command's prefix does not grant it (rules name the
       * command the user had in mind, not what can be smuggled into its arguments).
       */
      smuggled?: string;
    };

export const notReadOnly = (reason: string): ReadOnlyVerdict => ({ readOnly: false, reason });
export const readOnly = (paths: Field[] = []): ReadOnlyVerdict => ({ readOnly: true, paths });
/** Not read-only because of `option`, which writes, runs or reads secrets (see `smuggled`). */
export const smuggledOption = (reason: string, option: string): ReadOnlyVerdict => ({
  readOnly: false,
  reason,
  smuggled: option,
});

/** An unquoted glob that starts with a wildcard can expand to a file named like a flag (`-o...`). */
export function couldExpandToFlag(word: Field): boolean {
  if (!word.literal) return true;
  return word.glob && /^[*?[]/.test(word.value);
}

/** A word that may become several arguments (a glob, an unquoted or unknown expansion). */
export function couldExpandToSeveral(word: Field): boolean {
  return !word.literal || word.glob;
}
