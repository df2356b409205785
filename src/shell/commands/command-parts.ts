// A command part: one simple command bash will run, with the views its wrappers peel to.
import type { SimpleCommand } from "../parse/index.js";
import type { Unwrapping } from "./wrappers.js";

export type PartOrigin = "top" | "substitution" | "function" | "nested-shell" | "find-exec";

export interface CommandPart {
  command: SimpleCommand;
  unwrapping: Unwrapping;
  origin: PartOrigin;
  /** How many `sh -c` / `eval` layers this part sits under. */
  depth: number;
}
