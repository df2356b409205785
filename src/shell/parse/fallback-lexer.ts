// When the grammar cannot parse a command (an ERROR in the tree), the answer is at least ask.
// Deny rules must still hold on what bash would run before or despite the error, so this small
// quote-aware splitter recovers candidate simple commands from the raw text. It is used only to
// find deny matches: it can make a decision stricter, never looser.

import { decodeAnsiC, type Field, fieldsOfTokens, type WordToken } from "../words/index.js";

const SEPARATORS = new Set([";", "&", "|", "\n", "(", ")", "`", "{", "}"]);

export function fallbackSimpleCommands(text: string): Field[][] {
  const commands: Field[][] = [];
  let words: Field[] = [];
  let tokens: WordToken[] = [];
  let source = "";
  const endWord = () => {
    if (tokens.length > 0) words.push(...fieldsOfTokens(tokens, source));
    tokens = [];
    source = "";
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === " " || ch === "\t" || ch === "\r") {
      endWord();
      i += 1;
      continue;
    }
    // Braces start a group only as separate words; `{a,b}` glued to text is brace expansion.
    const braceGroup = (ch === "{" || ch === "}") && tokens.length === 0 && /[\s;]/.test(text[i + 1] ?? " ");
    if ((SEPARATORS.has(ch) && ch !== "{" && ch !== "}") || braceGroup) {
      endCommand();
      i += 1;
      continue;
    }
    if (ch === "$" && text[i + 1] === "(") {
      endCommand();
      i += 2;
      continue;
    }
    if (ch === "<" || ch === ">") {
      endWord();
      // A redirection's target is not a command word: skip it.
      i += 1;
      while (text[i] === ">" || text[i] === "&" || text[i] === "|") i += 1;
      while (text[i] === " ") i += 1;
      while (i < text.length && !/[\s;&|()]/.test(text[i] as string)) i += 1;
      continue;
    }
    source += ch;
    if (ch === "\\") {
      const next = text[i + 1];
      if (next !== undefined && next !== "\n") tokens.push({ kind: "char", ch: next, quoted: true });
      source += next ?? "";
      i += 2;
      continue;
    }
    if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close === -1 ? text.length : close;
      for (const c of text.slice(i + 1, end)) tokens.push({ kind: "char", ch: c, quoted: true });
      source += text.slice(i + 1, end + 1);
      i = end + 1;
      continue;
    }
    if (ch === "$" && text[i + 1] === "'") {
      const close = findAnsiClose(text, i + 2);
      for (const c of decodeAnsiC(text.slice(i + 2, close))) tokens.push({ kind: "char", ch: c, quoted: true });
      i = close + 1;
      continue;
    }
    if (ch === '"' || (ch === "$" && text[i + 1] === '"')) {
      const start = ch === "$" ? i + 2 : i + 1;
      let j = start;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === "\\") j += 1;
        j += 1;
      }
      const body = text.slice(start, j);
      if (/[$`]/.test(body)) tokens.push({ kind: "dynamic", source: body });
      else for (const c of body.replace(/\\([$`"\\])/g, "$1")) tokens.push({ kind: "char", ch: c, quoted: true });
      i = j + 1;
      continue;
    }
    if (ch === "$") {
      const match = /^\$(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|.)/.exec(text.slice(i));
      const expansion = match?.[0] ?? "$";
      if (expansion === "$IFS" || /^\$\{IFS(:\d+(:\d+)?)?\}$/.test(expansion)) tokens.push({ kind: "split" });
      else tokens.push({ kind: "dynamic", source: expansion });
      i += expansion.length;
      continue;
    }
    tokens.push({ kind: "char", ch, quoted: false });
    i += 1;
  }
  endCommand();
  return commands;
}

function findAnsiClose(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === "'") return i;
    else i += 1;
  }
  return text.length;
}
