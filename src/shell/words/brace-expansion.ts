// Bash brace expansion over a word's characters, so `{rm,-rf,build}` is seen as the three words
// bash will run. Only unquoted braces expand; quoted or escaped ones are literal, as in bash.
import type { WordToken } from "./field.js";

/** Above this many results the expansion is reported as too large to enumerate. */
export const MAX_BRACE_RESULTS = 256;

export type BraceResult = { kind: "expanded"; words: WordToken[][] } | { kind: "tooLarge" };

export function expandBraces(tokens: WordToken[]): BraceResult {
  const results: WordToken[][] = [];
  const pending: WordToken[][] = [tokens];
  while (pending.length > 0) {
    const current = pending.pop() as WordToken[];
    const group = findBraceGroup(current);
    if (!group) {
      results.push(current);
      if (results.length > MAX_BRACE_RESULTS) return { kind: "tooLarge" };
      continue;
    }
    const prefix = current.slice(0, group.open);
    const suffix = current.slice(group.close + 1);
    const alternatives = group.alternatives;
    if (alternatives.length + results.length + pending.length > MAX_BRACE_RESULTS) return { kind: "tooLarge" };
    for (let k = alternatives.length - 1; k >= 0; k -= 1) {
      pending.push([...prefix, ...(alternatives[k] as WordToken[]), ...suffix]);
    }
  }
  return { kind: "expanded", words: results };
}

function isChar(token: WordToken | undefined, ch: string): boolean {
  return token !== undefined && token.kind === "char" && !token.quoted && token.ch === ch;
}

interface BraceGroup {
  open: number;
  close: number;
  alternatives: WordToken[][];
}

function findBraceGroup(tokens: WordToken[]): BraceGroup | undefined {
  for (let open = 0; open < tokens.length; open += 1) {
    if (!isChar(tokens[open], "{")) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = open + 1; j < tokens.length; j += 1) {
      if (isChar(tokens[j], "{")) depth += 1;
      else if (isChar(tokens[j], "}")) {
        if (depth === 0) {
          const inner = tokens.slice(open + 1, j);
          if (commas.length > 0) {
            const alternatives: WordToken[][] = [];
            let start = open + 1;
            for (const comma of commas) {
              alternatives.push(tokens.slice(start, comma));
              start = comma + 1;
            }
            alternatives.push(tokens.slice(start, j));
            return { open, close: j, alternatives };
          }
          const range = expandRange(inner);
          if (range) return { open, close: j, alternatives: range };
          break;
        }
        depth -= 1;
      } else if (depth === 0 && isChar(tokens[j], ",")) commas.push(j);
    }
  }
  return undefined;
}

function expandRange(inner: WordToken[]): WordToken[][] | undefined {
  if (inner.some((t) => t.kind !== "char" || t.quoted)) return undefined;
  const text = inner.map((t) => (t.kind === "char" ? t.ch : "")).join("");
  const match = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, from = "", to = "", stepText] = match;
  const numeric = /\d/.test(from) && /\d/.test(to);
  if (!numeric && (/\d/.test(from) || /\d/.test(to))) return undefined;
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(stepText ?? "1")) || 1);
  const count = Math.floor(Math.abs(end - start) / step) + 1;
  if (count > MAX_BRACE_RESULTS) return Array.from({ length: MAX_BRACE_RESULTS + 1 }, () => []);
  const direction = end >= start ? 1 : -1;
  const words: WordToken[][] = [];
  for (let k = 0; k < count; k += 1) {
    const value = start + direction * step * k;
    const text = numeric ? String(value) : String.fromCharCode(value);
    words.push([...text].map((ch) => ({ kind: "char", ch, quoted: true }) as WordToken));
  }
  return words;
}
