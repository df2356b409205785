import type { Node } from "web-tree-sitter";
import type { CommandPart } from "../commands/index.js";
import type { QuoteContext, ScriptStructure } from "../parse/index.js";

/**
 * One security check's objection. `id` is the check's number in the reference's list of 23
 * (0 for the shell-quote single-quote pre-check, which has no number there).
 */
export interface Finding {
  id: number;
  validator: string;
  message: string;
  /**
   * Deferred findings (newlines, ordinary output redirection) do not show a parser differential;
   * they only mean "a human should look", so a mode may still waive them.
   */
  deferred?: boolean;
}

export interface ValidationInput {
  /** The command exactly as given. */
  raw: string;
  /** The text after joining line continuations, which is what was parsed. */
  script: string;
  contexts: QuoteContext[];
  root: Node;
  structure: ScriptStructure;
  parts: CommandPart[];
  /** Every named node of the tree, grouped by type. */
  nodes: Map<string, Node[]>;
}

export type ValidatorOutcome = Finding | "allow" | undefined;

/**
 * Real commands a validator must and must not react to, kept beside its code (as rule files carry
 * match / not_match examples) and run by test/shell/validators.test.ts: a validator that stops
 * flagging one of its `match` commands, or starts flagging a `notMatch` one, fails the suite.
 */
export interface ValidatorExamples {
  /** It flags each of these, and in the full pipeline its finding is the one reported first. */
  match: readonly string[];
  /** Early validators only: it vouches for each of these, ending the checks with nothing to object to. */
  allow?: readonly string[];
  /** It says nothing about each of these: close neighbours of `match` and everyday commands. */
  notMatch: readonly string[];
}

export interface Validator {
  id: number;
  name: string;
  check(input: ValidationInput): ValidatorOutcome;
  examples: ValidatorExamples;
}

export function finding(id: number, validator: string, message: string, deferred = false): Finding {
  return deferred ? { id, validator, message, deferred } : { id, validator, message };
}

export function nodesOf(input: ValidationInput, ...types: string[]): Node[] {
  return types.flatMap((type) => input.nodes.get(type) ?? []);
}
