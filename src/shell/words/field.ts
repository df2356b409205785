// The shapes the word recovery works in: a word as characters and run-time-only pieces
// (WordToken), and one argument as bash will pass it (Field). Their own file so that the steps
// over them (quote removal, brace expansion, option parsing) depend on the shapes, not on each other.

export type WordToken =
  | { kind: "char"; ch: string; quoted: boolean }
  | { kind: "dynamic"; source: string }
  /** An unquoted default-$IFS expansion: bash splits the word here. `bare` for `$IFS` (no braces). */
  | { kind: "split"; bare?: boolean };

/** One argument as bash will pass it. */
export interface Field {
  /** The recovered text; dynamic parts are replaced by DYNAMIC_MARK. */
  value: string;
  /** False when any part is known only at run time. */
  literal: boolean;
  /** True when an unquoted `*`, `?` or `[` makes it a glob pattern. */
  glob: boolean;
  /** True when any part of it was quoted or escaped. */
  quoted: boolean;
  /** The source text of the word this field came from. */
  source: string;
}

export const DYNAMIC_MARK = "\u{FFFD}";

export interface WordContext {
  /** Set when the script assigns IFS anywhere: then $IFS no longer means blank. */
  ifsReassigned: boolean;
}
