// Models often type straight quotes where a file has typographic ones (or the reverse). When the
// exact text is not found, both sides are compared with quotes folded to straight ones; on a match
// the file's own text is used, and the replacement is given the file's quote style so the edit
// does not leave a mix of styles behind.

const LEFT_SINGLE = "\u2018";
const RIGHT_SINGLE = "\u2019";
const LEFT_DOUBLE = "\u201c";
const RIGHT_DOUBLE = "\u201d";

export function foldQuotes(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"');
}

/** The position of `search` in `content` with quotes folded on both sides, or -1. */
export function indexOfFoldingQuotes(content: string, search: string, from = 0): number {
  // Folding replaces one character by one, so positions in the folded text are positions in the original.
  return foldQuotes(content).indexOf(foldQuotes(search), from);
}

/**
 * Gives `replacement` the curly quotes that `fileText` (the text actually matched in the file)
 * uses. An apostrophe between letters becomes a right single quote (don't, it's); otherwise a
 * quote after whitespace, an opening bracket, a dash or at the start opens, and any other closes.
 */
export function applyFileQuoteStyle(searched: string, fileText: string, replacement: string): string {
  if (searched === fileText) return replacement;
  const curlyDouble = fileText.includes(LEFT_DOUBLE) || fileText.includes(RIGHT_DOUBLE);
  const curlySingle = fileText.includes(LEFT_SINGLE) || fileText.includes(RIGHT_SINGLE);
  if (!curlyDouble && !curlySingle) return replacement;
  const chars = [...replacement];
  return chars
    .map((char, i) => {
      const before = i > 0 ? chars[i - 1]! : "";
      const after = i + 1 < chars.length ? chars[i + 1]! : "";
      if (char === '"' && curlyDouble) return opensQuote(before) ? LEFT_DOUBLE : RIGHT_DOUBLE;
      if (char === "'" && curlySingle) {
        if (isLetter(before) && isLetter(after)) return RIGHT_SINGLE;
        return opensQuote(before) ? LEFT_SINGLE : RIGHT_SINGLE;
      }
      return char;
    })
    .join("");
}

function opensQuote(before: string): boolean {
  return before === "" || /[\s([{\u2014\u2013-]/.test(before);
}

function isLetter(char: string): boolean {
  return /\p{L}/u.test(char);
}
