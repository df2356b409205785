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
  /**
   * Why this part runs code the analysis could not read (an interpreter's inline program, a
   * script file given to a shell or `source`, stdin nobody showed, a variable the shell executes,
   * a command name known only at run time), or undefined when all it runs was seen.
   */
  hidden: string | undefined;
}
