// Recovers the words bash would see from the syntax nodes of one shell word: quote removal,
// backslashes, ANSI-C and locale strings, default $IFS splitting, brace expansion. Anything known
// only at run time ($VAR, $(...)) stays marked as dynamic so no rule can match it by accident.
import type { Node } from "web-tree-sitter";
import { decodeAnsiC } from "./ansi-c.js";
import { expandBraces } from "./brace-expansion.js";
import { DYNAMIC_MARK, type Field, type WordContext, type WordToken } from "./field.js";

const PLAIN_TEXT_NODES = new Set([
  "word",
  "number",
  "test_operator",
  "file_descriptor",
  "regex",
  "extglob_pattern",
  "brace_expression",
  "special_variable_name",
  "variable_name",
]);

const DYNAMIC_NODES = new Set(["command_substitution", "process_substitution", "arithmetic_expansion"]);

/** A word's pieces: syntax nodes, or raw unquoted text the grammar left between them. */
export type WordPiece = Node | string;

export function tokensOfNodes(nodes: WordPiece[], context: WordContext): WordToken[] {
  const tokens: WordToken[] = [];
  for (let k = 0; k < nodes.length; k += 1) {
    const node = nodes[k] as WordPiece;
    if (typeof node === "string") {
      appendUnquotedText(node, tokens);
      continue;
    }
    const next = nodes[k + 1];
    if (typeof next !== "string" && isLoneDollarBeforeString(node, next)) continue;
    appendNode(node, context, tokens);
  }
  return tokens;
}

/**
 * The grammar can read `$"..."` as a lone `$` and a string; bash reads one locale string whose
 * text (without translation catalogues) is the double-quoted string's.
 */
function isLoneDollarBeforeString(node: Node, next: Node | undefined): boolean {
  return (
    next !== undefined &&
    next.startIndex === node.endIndex &&
    node.endIndex - node.startIndex === 1 &&
    node.type === "$" &&
    next.type === "string"
  );
}

function appendNode(node: Node, context: WordContext, tokens: WordToken[]): void {
  const type = node.type;
  if (PLAIN_TEXT_NODES.has(type)) {
    appendUnquotedText(node.text, tokens);
    return;
  }
  switch (type) {
    case "$":
      // A bare or escaped dollar (`\$`, `echo $`) is text to bash.
      appendUnquotedText(node.text, tokens);
      return;
    case "raw_string":
      appendQuotedText(node.text.slice(1, -1), tokens);
      return;
    case "ansi_c_string":
      appendQuotedText(decodeAnsiC(node.text.slice(2, -1)), tokens);
      return;
    case "string":
      appendDoubleQuoted(node, tokens);
      return;
    case "translated_string": {
      const inner = node.namedChildren.find((c) => c?.type === "string");
      if (inner) appendDoubleQuoted(inner, tokens);
      else tokens.push({ kind: "dynamic", source: node.text });
      return;
    }
    case "simple_expansion":
    case "expansion":
      if (!context.ifsReassigned && isDefaultIfsExpansion(node.text))
        tokens.push({ kind: "split", bare: type === "simple_expansion" });
      else tokens.push({ kind: "dynamic", source: node.text });
      return;
    case "concatenation":
      appendChildrenWithGaps(node, context, tokens);
      return;
    default:
      if (DYNAMIC_NODES.has(type)) {
        tokens.push({ kind: "dynamic", source: node.text });
        return;
      }
      // Unknown shapes are never guessed at: they count as known only at run time.
      tokens.push({ kind: "dynamic", source: node.text });
  }
}

function appendChildrenWithGaps(node: Node, context: WordContext, tokens: WordToken[]): void {
  let cursor = node.startIndex;
  const source = node.text;
  const children = node.children.filter((c): c is Node => c !== null);
  for (let k = 0; k < children.length; k += 1) {
    const child = children[k] as Node;
    if (child.startIndex > cursor)
      appendUnquotedText(source.slice(cursor - node.startIndex, child.startIndex - node.startIndex), tokens);
    if (isLoneDollarBeforeString(child, children[k + 1])) {
      cursor = child.endIndex;
      continue;
    }
    appendNode(child, context, tokens);
    cursor = child.endIndex;
  }
  if (cursor < node.endIndex) appendUnquotedText(source.slice(cursor - node.startIndex), tokens);
}

function appendDoubleQuoted(node: Node, tokens: WordToken[]): void {
  tokens.push(EMPTY_QUOTED);
  const source = node.text;
  const start = node.startIndex;
  let cursor = start + 1;
  const end = node.endIndex - (source.endsWith('"') && source.length > 1 ? 1 : 0);
  for (const child of node.namedChildren) {
    if (!child || child.startIndex < cursor) continue;
    if (child.startIndex > cursor)
      appendDoubleQuotedText(source.slice(cursor - start, child.startIndex - start), tokens);
    if (child.type === "string_content") appendDoubleQuotedText(child.text, tokens);
    else tokens.push({ kind: "dynamic", source: child.text });
    cursor = child.endIndex;
  }
  if (cursor < end) appendDoubleQuotedText(source.slice(cursor - start, end - start), tokens);
}

function appendUnquotedText(text: string, tokens: WordToken[]): void {
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[i + 1] as string;
      i += 1;
      if (next === "\n") continue;
      tokens.push({ kind: "char", ch: next, quoted: true });
      continue;
    }
    tokens.push({ kind: "char", ch, quoted: false });
  }
}

/** A quoted string, even an empty one, makes a word: `''` is an empty argument to bash. */
const EMPTY_QUOTED: WordToken = { kind: "char", ch: "", quoted: true };

function appendQuotedText(text: string, tokens: WordToken[]): void {
  tokens.push(EMPTY_QUOTED);
  for (const ch of text) tokens.push({ kind: "char", ch, quoted: true });
}

function appendDoubleQuotedText(text: string, tokens: WordToken[]): void {
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === "\\" && next !== undefined && '$`"\\\n'.includes(next)) {
      i += 1;
      if (next !== "\n") tokens.push({ kind: "char", ch: next, quoted: true });
      continue;
    }
    tokens.push({ kind: "char", ch, quoted: true });
  }
}

/** `$IFS`, `${IFS}`, `${IFS:0:1}` and similar substrings of the default blank-tab-newline. */
function isDefaultIfsExpansion(text: string): boolean {
  return text === "$IFS" || /^\$\{IFS(?::\d+(?::\d+)?)?\}$/.test(text);
}

/** Turns one source word into the fields bash passes, after brace expansion and IFS splitting. */
/**
 * After a quoted string the grammar can read `$NAME` as a lone `$` and a plain word (`''$HOME`),
 * which would make a variable look like literal text. Bash always expands an unquoted `$` before
 * a name, so those characters are turned back into the expansion here.
 */
function restoreSplitVariables(tokens: WordToken[], context: WordContext | undefined): WordToken[] {
  const out: WordToken[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as WordToken;
    const next = tokens[i + 1];
    const startsName = next?.kind === "char" && !next.quoted && /[A-Za-z_]/.test(next.ch);
    if (token.kind !== "char" || token.quoted || token.ch !== "$" || !startsName) {
      out.push(token);
      continue;
    }
    let name = "";
    let j = i + 1;
    while (j < tokens.length) {
      const candidate = tokens[j] as WordToken;
      if (candidate.kind !== "char" || candidate.quoted || !/[A-Za-z0-9_]/.test(candidate.ch)) break;
      name += candidate.ch;
      j += 1;
    }
    const ifs = name === "IFS" && context !== undefined && !context.ifsReassigned;
    out.push(ifs ? { kind: "split", bare: true } : { kind: "dynamic", source: `$${name}` });
    i = j - 1;
  }
  return out;
}

export function fieldsOfTokens(raw: WordToken[], source: string, context?: WordContext): Field[] {
  const input = restoreSplitVariables(raw, context);
  // Bash expands braces before variables: in `$IFS{a,b}` the name becomes IFSa and IFSb, so a
  // bare $IFS right before a brace is not a separator but a variable known only at run time.
  const tokens = input.map((token, i): WordToken => {
    const next = input[i + 1];
    return token.kind === "split" && token.bare && next?.kind === "char" && !next.quoted && next.ch === "{"
      ? { kind: "dynamic", source: "$IFS" }
      : token;
  });
  const braces = expandBraces(tokens);
  if (braces.kind === "tooLarge") {
    return [{ value: DYNAMIC_MARK, literal: false, glob: true, quoted: false, source }];
  }
  const fields: Field[] = [];
  for (const word of braces.words) {
    let current: WordToken[] = [];
    const flush = () => {
      if (current.length > 0) fields.push(fieldOf(current, source));
      current = [];
    };
    for (const token of word) {
      if (token.kind === "split") flush();
      else current.push(token);
    }
    flush();
  }
  return fields;
}

function fieldOf(tokens: WordToken[], source: string): Field {
  let value = "";
  let literal = true;
  let glob = false;
  let quoted = false;
  for (const token of tokens) {
    if (token.kind === "dynamic") {
      value += DYNAMIC_MARK;
      literal = false;
      continue;
    }
    if (token.kind !== "char") continue;
    value += token.ch;
    if (token.quoted) quoted = true;
    else if (token.ch === "*" || token.ch === "?" || token.ch === "[") glob = true;
  }
  return { value, literal, glob, quoted, source };
}

export function fieldsOfNodes(nodes: WordPiece[], context: WordContext): Field[] {
  if (nodes.length === 0) return [];
  const source = nodes.map((n) => (typeof n === "string" ? n : n.text)).join("");
  return fieldsOfTokens(tokensOfNodes(nodes, context), source, context);
}

/** An assignment value: no brace expansion and no field splitting, as bash does for `X=...`. */
export function assignmentValueField(nodes: Node[], context: WordContext): Field {
  const source = nodes.map((n) => n.text).join("");
  const tokens = restoreSplitVariables(tokensOfNodes(nodes, context), context).map(
    (t): WordToken => (t.kind === "split" ? { kind: "dynamic", source: "$IFS" } : t),
  );
  return fieldOf(tokens, source);
}
