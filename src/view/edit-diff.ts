// Every edit as a diff: what the file tools' input says they change, line by line. The Edit tool's
// input holds both sides of the change; Write and NotebookEdit hold only the new text, shown as
// added (the old content is not in the transcript).
import { diffLines } from "diff";

export interface DiffLine {
  sign: "+" | "-" | " ";
  text: string;
}

export interface EditDiff {
  filePath: string;
  lines: DiffLine[];
}

function linesOf(text: string, sign: DiffLine["sign"]): DiffLine[] {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  return lines.map((line) => ({ sign, text: line }));
}

function replacement(before: string, after: string): DiffLine[] {
  return diffLines(before, after).flatMap((part) => linesOf(part.value, part.added ? "+" : part.removed ? "-" : " "));
}

/** The diff a call's input describes, or undefined when the tool does not edit files. */
export function editDiffOf(toolName: string, input: Record<string, unknown>): EditDiff | undefined {
  const filePath =
    typeof input.file_path === "string"
      ? input.file_path
      : typeof input.notebook_path === "string"
        ? input.notebook_path
        : "";
  if (toolName === "Edit" && typeof input.old_string === "string" && typeof input.new_string === "string") {
    return { filePath, lines: replacement(input.old_string, input.new_string) };
  }
  if (toolName === "MultiEdit" && Array.isArray(input.edits)) {
    const lines = (input.edits as Record<string, unknown>[]).flatMap((edit, i) => [
      ...(i > 0 ? [{ sign: " " as const, text: "⋯" }] : []),
      ...(typeof edit.old_string === "string" && typeof edit.new_string === "string"
        ? replacement(edit.old_string, edit.new_string)
        : []),
    ]);
    return { filePath, lines };
  }
  if (toolName === "Write" && typeof input.content === "string")
    return { filePath, lines: linesOf(input.content, "+") };
  if (toolName === "NotebookEdit" && typeof input.new_source === "string") {
    return { filePath, lines: linesOf(input.new_source, "+") };
  }
  return undefined;
}
