// Full analysis of one Bash command: parse, split into the simple commands bash will run
// (including those inside substitutions, `sh -c`/`eval` strings and find -exec), peel wrappers,
// and run the security validators. The permission decision is built on top of this.
import type { Node, Parser, TreeCursor } from "web-tree-sitter";
import { type CommandPart, type PartOrigin, unwrapCommand } from "../commands/index.js";
import {
  fallbackSimpleCommands,
  joinLineContinuations,
  loadShellParser,
  parseWith,
  type ScriptStructure,
  type SimpleCommand,
  scanQuoteContexts,
  splitScript,
} from "../parse/index.js";
import { runValidators, type ValidationInput, type ValidationOutcome } from "../validators/index.js";
import type { Field } from "../words/index.js";
import { hiddenCodeOfPart } from "./hidden.js";

/** `sh -c "sh -c '...'"` nesting deeper than this is not followed; such commands ask. */
const MAX_NESTING = 4;

/**
 * A syntax tree deeper than this is not analysed (the command asks; deny rules still hold). The
 * splitter and validators recurse over the tree, and whether thousands of levels exhaust the stack
 * depended on how warm V8's code was: the same command was asked about in a fresh process and
 * allowed in one that had judged others. Real commands stay far below it; the grammar's long
 * `a && b && ...` lists nest one level per command, and the subcommand cap asks long before.
 */
export const MAX_SYNTAX_DEPTH = 400;

export interface ScriptAnalysis {
  command: string;
  /** The text that was parsed (line continuations joined). */
  script: string;
  structure: ScriptStructure;
  parts: CommandPart[];
  validation: ValidationOutcome;
  /** Deny-only candidates recovered from text the grammar could not parse. */
  fallbackCommands: Field[][];
  /** Some script (top level or nested) failed to parse or nested too deep. */
  incomplete: boolean;
}

/** Who is told of each analysis made (see observeAnalyses). */
const analysisObservers = new Set<(command: string) => void>();

/**
 * Calls `listener` with the command of every analysis from now until the returned function is
 * called. An analysis is a full parse plus the validators, the costly part of a Bash decision: a
 * test counts them to hold that one call analyses its command once.
 */
export function observeAnalyses(listener: (command: string) => void): () => void {
  analysisObservers.add(listener);
  return () => analysisObservers.delete(listener);
}

export async function analyzeCommand(command: string, cwd: string): Promise<ScriptAnalysis> {
  const parser = await loadShellParser();
  return analyzeCommandWith(parser, command, cwd);
}

/** How the validators are run over a parsed command: the full pipeline, unless a caller (a test of
 * one validator, say) needs to look at the same input itself while the syntax tree is alive. */
export type RunValidators = (input: ValidationInput) => ValidationOutcome;

export function analyzeCommandWith(
  parser: Parser,
  command: string,
  cwd: string,
  validate: RunValidators = runValidators,
): ScriptAnalysis {
  for (const observer of analysisObservers) observer(command);
  const script = joinLineContinuations(command);
  const tree = parseWith(parser, withoutPrefixKeywords(script));
  try {
    const nodes = collectNodes(tree.rootNode);
    const structure = splitScript(tree, cwd, { ifsReassigned: /(^|[\s;&|(])IFS\+?=/.test(script) });
    const collector: NestedCollector = { parts: [], fallback: [], incomplete: structure.hasError };
    if (structure.hasError) collector.fallback.push(...fallbackSimpleCommands(script));
    addParts(parser, structure.commands, 0, collector);
    const contexts = scanQuoteContexts(script);
    const validation = validate({
      raw: command,
      script,
      contexts,
      root: tree.rootNode,
      structure,
      parts: collector.parts,
      nodes,
    });
    return {
      command,
      script,
      structure,
      parts: collector.parts,
      validation,
      fallbackCommands: collector.fallback,
      incomplete: collector.incomplete,
    };
  } finally {
    tree.delete();
  }
}

interface NestedCollector {
  parts: CommandPart[];
  fallback: Field[][];
  incomplete: boolean;
}

function originOf(command: SimpleCommand, depth: number): PartOrigin {
  if (depth > 0) return "nested-shell";
  return command.origin === "nested-shell" ? "nested-shell" : command.origin;
}

function addParts(parser: Parser, commands: SimpleCommand[], depth: number, out: NestedCollector): void {
  for (const command of commands) addPart(parser, command, originOf(command, depth), depth, out);
}

function addPart(
  parser: Parser,
  command: SimpleCommand,
  origin: PartOrigin,
  depth: number,
  out: NestedCollector,
): void {
  const unwrapping = unwrapCommand(command.words);
  // A shell reading its script from stdin: a heredoc, a here-string or a literal echo/printf
  // before the pipe says what it runs, so deny rules can see it (the command still asks).
  const stdinScript = unwrapping.runsStdin ? (command.stdinText ?? literalOutputOf(command.stdinFrom)) : undefined;
  const { hidden, denyScripts } = hiddenCodeOfPart(command, unwrapping, stdinScript);
  out.parts.push({ command, unwrapping, origin, depth, hidden });
  for (const text of denyScripts) out.fallback.push(...fallbackSimpleCommands(text));
  for (const words of unwrapping.nestedCommands) {
    const inner: SimpleCommand = { ...command, kind: "command", assignments: [], words, redirects: [] };
    addPart(parser, inner, "find-exec", depth, out);
  }
  const scripts = stdinScript === undefined ? unwrapping.nestedScripts : [...unwrapping.nestedScripts, stdinScript];
  for (const nested of scripts) {
    if (depth + 1 > MAX_NESTING) {
      out.incomplete = true;
      out.fallback.push(...fallbackSimpleCommands(nested));
      continue;
    }
    const tree = parseWith(parser, withoutPrefixKeywords(joinLineContinuations(nested)));
    try {
      walkShallowTree(tree.rootNode);
      const structure = splitScript(tree, command.cwd ?? "/", { ifsReassigned: /(^|[\s;&|(])IFS\+?=/.test(nested) });
      if (structure.hasError) {
        out.incomplete = true;
        out.fallback.push(...fallbackSimpleCommands(nested));
      }
      const commands =
        command.cwd === undefined ? structure.commands.map((c) => ({ ...c, cwd: undefined })) : structure.commands;
      addParts(parser, commands, depth + 1, out);
    } finally {
      tree.delete();
    }
  }
}

/**
 * Keywords the grammar does not know before a command, blanked out (same length, so offsets hold)
 * so that the rest parses as the command bash will run: `coproc` (the grammar drops
 * `coproc (rm x)` and reads `coproc { rm x; }` as words; bash runs the command, in the background)
 * and `time` before a compound command (below).
 */
function withoutPrefixKeywords(script: string): string {
  if (!script.includes("coproc") && !script.includes("time")) return script;
  const blank = (match: string, before: string) => before + " ".repeat(match.length - before.length);
  return script
    .replace(/(^|[;&|({}\n]|\b(?:then|do|else|!)\s)(\s*)coproc(\s+[A-Za-z_][A-Za-z0-9_]*(?=\s*[{(]))?(?=\s)/g, blank)
    .replace(
      // Nor the `time` keyword before a compound command: `time { rm x; }` and `time if ...` come
      // out as words of a command named `time`, `time (rm x)` as a subshell inside one. Bash times
      // the compound command and runs it; blanked out, the rest parses as that command.
      /(^|[;&|({}\n]|\b(?:then|do|else|!)\s)(\s*)time(?:\s+-p)*(?:\s+--)?(?=\s*(?:[({!]|\[\[|(?:if|for|while|until|case|select|function|coproc)(?=\s)))/g,
      blank,
    );
}

/** Node types the validators look at; only these are materialised (node objects are costly). */
const VALIDATED_TYPES = new Set([
  "ansi_c_string",
  "translated_string",
  "raw_string",
  "string",
  "comment",
  "command_substitution",
  "process_substitution",
  "expansion",
]);

/** What `echo ...` or `printf 'text'` with only literal words writes, when that is plain. */
function literalOutputOf(producer: SimpleCommand | undefined): string | undefined {
  const words = producer?.words;
  // `cat <<EOF | sh`: cat passes its heredoc through.
  if (producer?.stdinText !== undefined && words?.length === 1 && words[0]?.value === "cat") return producer.stdinText;
  if (!words || words.length < 2 || !words.every((w) => w.literal)) return undefined;
  const name = words[0]?.value;
  if (name === "echo")
    return `${words
      .slice(1)
      .filter((w, i) => !(i === 0 && /^-[neE]+$/.test(w.value)))
      .map((w) => w.value)
      .join(" ")}\n`;
  if (name === "printf" && words.length === 2 && !(words[1]?.value ?? "").includes("%"))
    return (words[1]?.value ?? "").replace(/\\n/g, "\n");
  return undefined;
}

/**
 * Enters every node of the tree in order, without recursion, calling `enter` with the cursor on it;
 * throws when the tree is deeper than MAX_SYNTAX_DEPTH, so it runs before anything that recurses.
 */
function walkShallowTree(root: Node, enter?: (cursor: TreeCursor) => void): void {
  const cursor = root.walk();
  try {
    let descending = true;
    let depth = 0;
    while (true) {
      if (descending) {
        enter?.(cursor);
        if (cursor.gotoFirstChild()) {
          depth += 1;
          if (depth > MAX_SYNTAX_DEPTH) throw new Error(`it nests more than ${MAX_SYNTAX_DEPTH} levels deep`);
          continue;
        }
      }
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      depth -= 1;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
}

/** The nodes the validators look at, by type, from the one walk that also checks the depth. */
function collectNodes(root: Node): Map<string, Node[]> {
  const nodes = new Map<string, Node[]>();
  walkShallowTree(root, (cursor) => {
    const type = cursor.nodeType;
    if (!VALIDATED_TYPES.has(type)) return;
    const list = nodes.get(type);
    if (list) list.push(cursor.currentNode);
    else nodes.set(type, [cursor.currentNode]);
  });
  return nodes;
}

/** The simple commands of a compound command, as source text, in the order bash runs them. */
export async function splitBashCommand(command: string, cwd: string = process.cwd()): Promise<string[]> {
  const analysis = await analyzeCommand(command, cwd);
  return analysis.parts.filter((p) => p.depth === 0 && p.origin !== "find-exec").map((p) => p.command.source);
}
