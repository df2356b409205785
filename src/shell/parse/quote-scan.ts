// A quote-aware scan of the raw command text, for what the syntax tree cannot show: bytes the
// grammar treats differently from bash (line continuations, carriage returns, backslashes just
// before a closing quote). It tracks only what bash's lexer tracks before parsing.

export enum QuoteContext {
  Unquoted = 0,
  Single = 1,
  Double = 2,
  AnsiC = 3,
  Comment = 4,
  HeredocLiteral = 5,
  HeredocExpanding = 6,
}

interface PendingHeredoc {
  delimiter: string;
  literal: boolean;
  stripTabs: boolean;
}

const WORD_BREAK = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

/** One context per UTF-16 unit of `text`, describing how bash reads that character. */
export function scanQuoteContexts(text: string): QuoteContext[] {
  const contexts: QuoteContext[] = new Array(text.length).fill(QuoteContext.Unquoted);
  let i = 0;
  const pending: PendingHeredoc[] = [];
  // Double quotes nest inside $( ) in bash; a small stack keeps `"$(echo ")")"` straight.
  const stack: Array<"double" | "subst"> = [];
  const inDouble = () => stack[stack.length - 1] === "double";

  while (i < text.length) {
    const ch = text[i] as string;
    if (inDouble()) {
      contexts[i] = QuoteContext.Double;
      if (ch === "\\") {
        if (i + 1 < text.length) contexts[i + 1] = QuoteContext.Double;
        i += 2;
        continue;
      }
      if (ch === '"') stack.pop();
      else if (ch === "$" && text[i + 1] === "(") {
        contexts[i + 1] = QuoteContext.Double;
        stack.push("subst");
        i += 2;
        continue;
      }
      i += 1;
      continue;
    }
    if (ch === "\\") {
      i += 2;
      continue;
    }
    if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close === -1 ? text.length : close + 1;
      contexts.fill(QuoteContext.Single, i, end);
      i = end;
      continue;
    }
    if (ch === "$" && text[i + 1] === "'") {
      const end = findAnsiCEnd(text, i + 2);
      contexts.fill(QuoteContext.AnsiC, i, end);
      i = end;
      continue;
    }
    if (ch === '"') {
      contexts[i] = QuoteContext.Double;
      stack.push("double");
      i += 1;
      continue;
    }
    if (ch === "$" && text[i + 1] === "(") {
      stack.push("subst");
      i += 2;
      continue;
    }
    if (ch === ")" && stack[stack.length - 1] === "subst") {
      stack.pop();
      i += 1;
      continue;
    }
    if (ch === "#" && (i === 0 || WORD_BREAK.has(text[i - 1] as string))) {
      const newline = text.indexOf("\n", i);
      const end = newline === -1 ? text.length : newline;
      contexts.fill(QuoteContext.Comment, i, end);
      i = end;
      continue;
    }
    if (ch === "<" && text[i + 1] === "<" && text[i + 2] !== "<") {
      const heredoc = readHeredocStart(text, i + 2);
      if (heredoc) {
        pending.push(heredoc.pending);
        i = heredoc.end;
        continue;
      }
    }
    if (ch === "\n" && pending.length > 0) {
      i = skipHeredocBodies(text, i + 1, pending.splice(0), contexts);
      continue;
    }
    i += 1;
  }
  return contexts;
}

function findAnsiCEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === "'") return i + 1;
    else i += 1;
  }
  return text.length;
}

function readHeredocStart(text: string, from: number): { pending: PendingHeredoc; end: number } | undefined {
  let i = from;
  const stripTabs = text[i] === "-";
  if (stripTabs) i += 1;
  while (text[i] === " " || text[i] === "\t") i += 1;
  let delimiter = "";
  let literal = false;
  while (i < text.length && !WORD_BREAK.has(text[i] as string)) {
    const ch = text[i] as string;
    if (ch === "'" || ch === '"') {
      literal = true;
      const close = text.indexOf(ch, i + 1);
      if (close === -1) return undefined;
      delimiter += text.slice(i + 1, close);
      i = close + 1;
    } else if (ch === "\\") {
      literal = true;
      delimiter += text[i + 1] ?? "";
      i += 2;
    } else {
      delimiter += ch;
      i += 1;
    }
  }
  if (delimiter === "") return undefined;
  return { pending: { delimiter, literal, stripTabs }, end: i };
}

function skipHeredocBodies(text: string, from: number, heredocs: PendingHeredoc[], contexts: QuoteContext[]): number {
  let i = from;
  for (const heredoc of heredocs) {
    const context = heredoc.literal ? QuoteContext.HeredocLiteral : QuoteContext.HeredocExpanding;
    while (i < text.length) {
      const newline = text.indexOf("\n", i);
      const lineEnd = newline === -1 ? text.length : newline;
      const line = text.slice(i, lineEnd);
      const candidate = heredoc.stripTabs ? line.replace(/^\t+/, "") : line;
      contexts.fill(context, i, lineEnd + (newline === -1 ? 0 : 1));
      i = lineEnd + 1;
      if (candidate === heredoc.delimiter) break;
    }
  }
  return Math.min(i, text.length);
}

/**
 * Removes backslash-newline pairs where bash removes them (outside single quotes, comments and
 * literal heredocs). The grammar treats them as blanks, so `r\<newline>m` would read as two words
 * while bash runs `rm`.
 */
export function joinLineContinuations(text: string): string {
  if (!text.includes("\\\n")) return text;
  const contexts = scanQuoteContexts(text);
  let out = "";
  let i = 0;
  while (i < text.length) {
    const context = contexts[i];
    const joinable =
      context === QuoteContext.Unquoted || context === QuoteContext.Double || context === QuoteContext.HeredocExpanding;
    if (joinable && text[i] === "\\" && text[i + 1] === "\n" && !isEscapedBackslash(text, i)) {
      i += 2;
      continue;
    }
    out += text[i];
    i += 1;
  }
  return out;
}

function isEscapedBackslash(text: string, index: number): boolean {
  let count = 0;
  for (let j = index - 1; j >= 0 && text[j] === "\\"; j -= 1) count += 1;
  return count % 2 === 1;
}
