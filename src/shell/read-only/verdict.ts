import type { Field } from "../words/index.js";

/** Whether one command (already unwrapped) has no effect beyond its output. */
export type ReadOnlyVerdict =
  | {
      readOnly: true;
      /** Operands naming files it reads: they must lie inside the working directories. */
      paths: Field[];
    }
  | { readOnly: false; reason: string };

export const notReadOnly = (reason: string): ReadOnlyVerdict => ({ readOnly: false, reason });
export const readOnly = (paths: Field[] = []): ReadOnlyVerdict => ({ readOnly: true, paths });

/** An unquoted glob that starts with a wildcard can expand to a file named like a flag (`-o...`). */
export function couldExpandToFlag(word: Field): boolean {
  if (!word.literal) return true;
  return word.glob && /^[*?[]/.test(word.value);
}
