// cat -n style numbering: right-aligned number, a tab, the line. The model copies text for
// old_string from after the tab, so the prefix must be unambiguous.

const NUMBER_WIDTH = 6;
/** The spaces before a number of each length (index: the number's length), made once. */
const PADDING = Array.from({ length: NUMBER_WIDTH }, (_, digits) => " ".repeat(NUMBER_WIDTH - digits));
/**
 * The prefixes of the first lines, made at their first use and kept: Reads number lines from the
 * same small numbers again and again (most from 1), and a read is numbered cold, where making each
 * prefix anew was most of the garbage a Read of a small file made. Bounded by Read's default window.
 */
const cachedPrefixes: string[] = [];
const CACHED_PREFIXES = 2_001;

/** The prefix of a line: its number right-aligned in six columns (wider numbers as they are), and a tab. */
function linePrefix(lineNumber: number): string {
  const cached = lineNumber < CACHED_PREFIXES ? cachedPrefixes[lineNumber] : undefined;
  if (cached !== undefined) return cached;
  const digits = String(lineNumber);
  const prefix = digits.length < NUMBER_WIDTH ? `${PADDING[digits.length]}${digits}\t` : `${digits}\t`;
  if (lineNumber < CACHED_PREFIXES) cachedPrefixes[lineNumber] = prefix;
  return prefix;
}

export function formatNumberedLine(lineNumber: number, text: string): string {
  return linePrefix(lineNumber) + text;
}

/**
 * Every line numbered from `firstLineNumber`, joined by newlines: the pieces gathered in one array
 * and joined once, with no string made per line (`map` over formatNumberedLine with padStart and a
 * template made about three times the garbage; a turn of Reads all runs through here, cold).
 */
export function addLineNumbers(lines: readonly string[], firstLineNumber: number): string {
  if (lines.length === 0) return "";
  const pieces = new Array<string>(lines.length * 3 - 1);
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) pieces[3 * i - 1] = "\n";
    pieces[3 * i] = linePrefix(firstLineNumber + i);
    pieces[3 * i + 1] = lines[i] as string;
  }
  return pieces.join("");
}
