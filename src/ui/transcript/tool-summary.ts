// One line for a tool call and one for its result, as the transcript shows them. The call's line
// is built from what the tool says of its input (its path, else the usual input fields); a result
// of a read-only call (a read, a search, a listing: the tool's own isReadOnly decides, which for
// Bash is the shell analysis's read and search command classes) is collapsed to its size.
import { readFileSync, statSync } from "node:fs";
import { relative } from "node:path";
import type { ToolResultBlock, ToolUseBlock } from "../../messages/types.js";
import type { AnyTool } from "../../tool/types.js";

const SUMMARY_FIELDS = ["command", "pattern", "url", "query", "prompt", "description", "skill", "subject", "taskId"];
const MAX_SUMMARY = 100;

export function oneLine(text: string, max = MAX_SUMMARY): string {
  const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const more = text.trim().includes("\n") ? " …" : "";
  const line = first.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : `${line}${more}`;
}

/** `Read(src/a.ts)`, `Bash(npm test)`: the call as one line. */
export function toolCallSummary(tool: AnyTool | undefined, use: ToolUseBlock, cwd: string): string {
  const input = use.input;
  // The list itself is shown as the result (a checklist), not as JSON in the call's line.
  if (checklistOf(use)) return "Update Todos";
  // A subagent by what it does (its description), under its type, as Claude Code names it.
  if (use.name === "Agent" && typeof input.description === "string" && input.description.trim() !== "") {
    const type = typeof input.subagent_type === "string" && input.subagent_type.trim() ? input.subagent_type : "Agent";
    return `${type}(${oneLine(input.description)})`;
  }
  let name = use.name;
  let detail: string | undefined;
  try {
    name = tool?.userFacingName(input) ?? use.name;
    const path = tool?.getPath?.(input, cwd);
    if (path) detail = displayPath(path, cwd);
  } catch {
    // A tool that cannot describe this input (it did not parse) is shown by its raw fields.
  }
  if (detail === undefined) {
    for (const field of SUMMARY_FIELDS) {
      const value = input[field];
      if (typeof value === "string" && value.trim() !== "") {
        detail = oneLine(value);
        break;
      }
    }
  }
  // Any other text the call carries (a plan, a message) by its first line: as JSON its newlines and
  // quotes read as `{"plan":"# Plan\n\n1. ...`. Only input without text is shown as JSON.
  if (detail === undefined) {
    const text = Object.values(input).find(
      (value): value is string => typeof value === "string" && value.trim() !== "",
    );
    if (text !== undefined) detail = oneLine(text);
  }
  if (detail === undefined) {
    const text = JSON.stringify(input);
    detail = text === "{}" ? "" : oneLine(text);
  }
  return `${name}(${detail})`;
}

export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") ? rel : path;
}

export function resultText(result: ToolResultBlock): string {
  if (typeof result.content === "string") return result.content;
  return result.content
    .map((block) => (block.type === "text" ? block.text : block.type === "image" ? "[image]" : ""))
    .join("\n");
}

export interface ResultSummary {
  /** Lines shown under the call. */
  lines: string[];
  /** Lines left out. */
  hidden: number;
  isError: boolean;
}

/**
 * Tools whose output is what the person wants to see even when the call only read: a command's
 * output is shown by its first lines, as Claude Code does, not counted like a Read's.
 */
const SHOWS_OUTPUT = new Set(["Bash", "PowerShell"]);

/**
 * What is shown of a result: errors and ordinary output by their first lines, read-only results
 * (but a shell's) as a count.
 */
export function summarizeResult(
  tool: AnyTool | undefined,
  use: ToolUseBlock,
  result: ToolResultBlock,
  maxLines = 4,
  collapseReadOnly = true,
): ResultSummary {
  const text = resultText(result).replace(/\s+$/, "");
  const all = text === "" ? [] : text.split("\n");
  const isError = result.is_error === true;
  const checklist = isError ? undefined : checklistOf(use);
  if (checklist) return { lines: checklist, hidden: 0, isError };
  if (!isError && collapseReadOnly && !SHOWS_OUTPUT.has(use.name) && isReadOnlyCall(tool, use)) {
    return {
      lines: [all.length === 0 ? "(no output)" : `${all.length} line${all.length === 1 ? "" : "s"}`],
      hidden: 0,
      isError,
    };
  }
  if (all.length === 0) return { lines: ["(no output)"], hidden: 0, isError };
  return { lines: all.slice(0, maxLines), hidden: Math.max(0, all.length - maxLines), isError };
}

function isReadOnlyCall(tool: AnyTool | undefined, use: ToolUseBlock): boolean {
  if (!tool) return false;
  try {
    const parsed = tool.inputSchema.safeParse(use.input);
    return parsed.success ? tool.isReadOnly(parsed.data) : false;
  } catch {
    return false;
  }
}

export interface EditPreview {
  oldText: string;
  newText: string;
  /** The line of the file where the edited text starts (1 when unknown). */
  firstLine: number;
}

/**
 * The text an edit replaces and its replacement, when the call's input describes one, with the
 * line it sits at in the file (looked up as `lookFor` says: the old text before the edit runs,
 * the new text after), so the diff shows the file's own line numbers. Found in the file, both
 * sides are widened to whole lines: a diff line numbered as the file's line 12 shows that line,
 * not only the few characters of it the edit names.
 */
export function editOf(input: Record<string, unknown>, lookFor: "old" | "new"): EditPreview | undefined {
  if (typeof input.old_string !== "string" || typeof input.new_string !== "string") return undefined;
  const preview = { oldText: input.old_string, newText: input.new_string, firstLine: 1 };
  if (typeof input.file_path !== "string") return preview;
  try {
    if (statSync(input.file_path).size > MAX_LOOKUP_BYTES) return preview;
    const content = readFileSync(input.file_path, "utf8");
    const needle = lookFor === "old" ? preview.oldText : preview.newText;
    const at = needle === "" ? -1 : content.indexOf(needle);
    if (at < 0) return preview;
    let lineStart = content.lastIndexOf("\n", at - 1) + 1;
    const end = at + needle.length;
    let lineEnd = endOfLine(content, end, needle.endsWith("\n"));
    // The file's lines around the edit come along, so the person sees where it lands (which
    // function a changed `return` is in), as the diff of Claude Code and git show it.
    for (let i = 0; i < EDIT_CONTEXT_LINES; i++) {
      lineStart = startOfPreviousLine(content, lineStart);
      lineEnd = endOfNextLine(content, lineEnd, needle.endsWith("\n"));
    }
    const before = content.slice(lineStart, at);
    const after = content.slice(end, lineEnd);
    return {
      oldText: before + preview.oldText + after,
      newText: before + preview.newText + after,
      firstLine: content.slice(0, lineStart).split("\n").length,
    };
  } catch {
    // The file is gone or unreadable: the diff keeps numbers relative to the edit.
  }
  return preview;
}

/**
 * What a Write would change, for the person asked to allow it: the file as it is (nothing for a
 * new file) against the content the call writes, so they see what they approve.
 */
export function writeOf(input: Record<string, unknown>): EditPreview | undefined {
  if (typeof input.file_path !== "string" || typeof input.content !== "string") return undefined;
  let current = "";
  try {
    // A file too big to read here gets no preview rather than one that shows it as new.
    if (statSync(input.file_path).size > MAX_LOOKUP_BYTES) return undefined;
    current = readFileSync(input.file_path, "utf8");
  } catch {
    // No such file yet: every line is new.
  }
  // A new file's last line is whole even without its newline, so the diff only adds lines.
  const newText = current === "" && !input.content.endsWith("\n") ? `${input.content}\n` : input.content;
  return { oldText: current, newText, firstLine: 1 };
}

/** Where the line holding offset `from` ends; a text that ended with its newline is already there. */
function endOfLine(content: string, from: number, atBoundary: boolean): number {
  if (atBoundary) return from;
  const next = content.indexOf("\n", from);
  return next === -1 ? content.length : next;
}

/** Where the line before the one starting at `lineStart` starts (0 at the file's first line). */
function startOfPreviousLine(content: string, lineStart: number): number {
  if (lineStart <= 1) return 0;
  return content.lastIndexOf("\n", lineStart - 2) + 1;
}

/**
 * One more line after `lineEnd`: past its newline when the text so far ended with one (`lineEnd`
 * starts a line), else up to the next line's newline (the text keeps ending without one).
 */
function endOfNextLine(content: string, lineEnd: number, atBoundary: boolean): number {
  if (lineEnd >= content.length) return content.length;
  const next = content.indexOf("\n", atBoundary ? lineEnd : lineEnd + 1);
  if (next === -1) return content.length;
  return atBoundary ? next + 1 : next;
}

/** Unchanged lines of the file shown before and after an edit (DiffView's own context). */
const EDIT_CONTEXT_LINES = 2;

const MAX_LOOKUP_BYTES = 2_000_000;

/** A TodoWrite call's list as the checklist the person reads (☒ done, ◼ in progress, ☐ pending). */
export function checklistOf(use: ToolUseBlock): string[] | undefined {
  if (use.name !== "TodoWrite" || !Array.isArray(use.input.todos)) return undefined;
  const lines: string[] = [];
  for (const todo of use.input.todos as unknown[]) {
    if (typeof todo !== "object" || todo === null) return undefined;
    const { content, status } = todo as { content?: unknown; status?: unknown };
    if (typeof content !== "string") return undefined;
    lines.push(`${status === "completed" ? "☒" : status === "in_progress" ? "◼" : "☐"} ${oneLine(content)}`);
  }
  return lines.length > 0 ? lines : ["(the list is now empty)"];
}

/** Who asks in a subagent's permission question: the agent's type, not its generated id. */
export function askingAgentLabel(querySource: string | undefined, agentId: string | undefined): string | undefined {
  if (agentId === undefined) return undefined;
  if (querySource?.startsWith("agent:")) return `The ${querySource.slice("agent:".length)} agent`;
  return "A forked agent";
}
