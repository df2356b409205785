// cat -n style numbering: right-aligned number, a tab, the line. The model copies text for
// old_string from after the tab, so the prefix must be unambiguous.

export function formatNumberedLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6, " ")}\t${text}`;
}

export function addLineNumbers(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, i) => formatNumberedLine(firstLineNumber + i, line)).join("\n");
}
