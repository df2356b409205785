// cat -n style numbering: right-aligned number, a tab, the line. The model copies text for
// old_string from after the tab, so the prefix must be unambiguous.

const NUMBER_WIDTH = 6;
/** The spaces before a number of each length (index: the number's length), made once. */
const PADDING = Array.from({ length: NUMBER_WIDTH }, (_, digits) => " ".repeat(NUMBER_WIDTH - digits));

/** The prefix of a line: its number right-aligned in six columns (wider numbers as they are), and a tab. */
function linePrefix(lineNumber: number): string {
  const digits = String(lineNumber);
  return digits.length < NUMBER_WIDTH ? `${PADDING[digits.length]}${digits}\t` : `${digits}\t`;
}

export function formatNumberedLine(lineNumber: number, text: string): string {
  return linePrefix(lineNumber) + text;
}

/**
 * Every line numbered from `firstLineNumber`, joined by newlines. One loop into one array, not
 * `map` over formatNumberedLine with padStart and a template: that made about half again as much
 * garbage (a turn of Reads all runs through here, cold).
 */
export function addLineNumbers(lines: readonly string[], firstLineNumber: number): string {
  const numbered = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) numbered[i] = linePrefix(firstLineNumber + i) + lines[i];
  return numbered.join("\n");
}
