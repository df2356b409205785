// An edit as a person reviews it: the changed lines with a little context, removed lines red with
// "-", added lines green with "+", each with its line number, hunks separated by a dim "...".
// Used for finished edits and in the permission prompt of an edit that is waiting for approval.
import { structuredPatch } from "diff";
import { Box, Text } from "ink";

export interface DiffViewProps {
  oldText: string;
  newText: string;
  /** Unchanged lines shown around each change. */
  context?: number;
  /** At most this many lines are shown; the rest is counted. */
  maxLines?: number;
  /** The file's line number of the texts' first line. */
  firstLine?: number;
}

export interface DiffLine {
  kind: "add" | "remove" | "context" | "gap";
  /** The line's number in the new text (old text for removed lines). */
  number?: number;
  text: string;
}

export function diffLines(oldText: string, newText: string, context = 2, firstLine = 1): DiffLine[] {
  // An edit's texts are cut from the middle of a file: their last line goes on in the file. Without
  // a final newline on either, "a" → "a\nb" would read as "a" removed and "a", "b" added, where
  // the file (and git) gained one line.
  const [before, after] =
    !oldText.endsWith("\n") && !newText.endsWith("\n") ? [`${oldText}\n`, `${newText}\n`] : [oldText, newText];
  const patch = structuredPatch("a", "b", before, after, undefined, undefined, { context });
  const lines: DiffLine[] = [];
  for (const [index, hunk] of patch.hunks.entries()) {
    if (index > 0) lines.push({ kind: "gap", text: "..." });
    let oldLine = hunk.oldStart + firstLine - 1;
    let newLine = hunk.newStart + firstLine - 1;
    for (const raw of hunk.lines) {
      const mark = raw[0];
      const text = raw.slice(1);
      if (mark === "\\") continue; // "\ No newline at end of file"
      if (mark === "-") lines.push({ kind: "remove", number: oldLine++, text });
      else if (mark === "+") lines.push({ kind: "add", number: newLine++, text });
      else {
        lines.push({ kind: "context", number: newLine++, text });
        oldLine++;
      }
    }
  }
  return lines;
}

export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  return {
    added: lines.filter((l) => l.kind === "add").length,
    removed: lines.filter((l) => l.kind === "remove").length,
  };
}

export function DiffView({ oldText, newText, context = 2, maxLines = 40, firstLine = 1 }: DiffViewProps) {
  const lines = diffLines(oldText, newText, context, firstLine);
  const shown = lines.slice(0, maxLines);
  const width = String(Math.max(1, ...shown.map((l) => l.number ?? 0))).length;
  return (
    <Box flexDirection="column">
      {shown.map((line, index) =>
        line.kind === "gap" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
          <Text key={index} {...lineStyle(line.kind)}>{`${" ".repeat(width)}  ...`}</Text>
        ) : (
          // A line too long for the terminal goes on under its own text, not under the numbers.
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
          <Box key={index}>
            <Box width={width + 3} flexShrink={0}>
              <Text {...lineStyle(line.kind)}>
                {`${String(line.number).padStart(width)} ${line.kind === "add" ? "+" : line.kind === "remove" ? "-" : " "} `}
              </Text>
            </Box>
            <Box flexGrow={1} flexShrink={1}>
              <Text {...lineStyle(line.kind)}>{line.text}</Text>
            </Box>
          </Box>
        ),
      )}
      {lines.length > shown.length ? <Text dimColor>... {lines.length - shown.length} more lines</Text> : null}
    </Box>
  );
}

function lineStyle(kind: DiffLine["kind"]): { color?: string; dimColor?: boolean } {
  if (kind === "add") return { color: "green" };
  if (kind === "remove") return { color: "red" };
  return { dimColor: true };
}
