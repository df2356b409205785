// How a Warden tool call looks in an editor speaking ACP: its kind (the icon and grouping the
// editor shows), a title, the files it touches (the editor can follow along), and its result.
import type { ToolCall, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk/unstable";
import { type ToolResultBlock, toolResultText } from "../../messages/types.js";

const KIND_BY_TOOL: Record<string, ToolKind> = {
  Read: "read",
  NotebookRead: "read",
  ReadMcpResource: "read",
  ListMcpResources: "read",
  Write: "edit",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  Glob: "search",
  Grep: "search",
  ToolSearch: "search",
  WebSearch: "search",
  Bash: "execute",
  TaskOutput: "execute",
  TaskStop: "execute",
  WebFetch: "fetch",
  TodoWrite: "think",
  TaskCreate: "think",
  TaskUpdate: "think",
  TaskList: "think",
  TaskGet: "think",
  Agent: "think",
  EnterPlanMode: "switch_mode",
  ExitPlanMode: "switch_mode",
};

export function toolKind(name: string): ToolKind {
  return KIND_BY_TOOL[name] ?? "other";
}

function stringField(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function toolLocations(input: Record<string, unknown>): ToolCallLocation[] {
  const path = stringField(input, "file_path") ?? stringField(input, "notebook_path") ?? stringField(input, "path");
  if (path === undefined) return [];
  const offset = input.offset;
  return [typeof offset === "number" && offset > 0 ? { path, line: offset } : { path }];
}

/** A short line naming what the call does, as the editor lists it. */
export function toolTitle(name: string, input: Record<string, unknown>): string {
  const detail =
    stringField(input, "command") ??
    stringField(input, "file_path") ??
    stringField(input, "notebook_path") ??
    stringField(input, "pattern") ??
    stringField(input, "url") ??
    stringField(input, "query") ??
    stringField(input, "description");
  const clipped = detail && detail.length > 120 ? `${detail.slice(0, 119)}…` : detail;
  return clipped ? `${name}: ${clipped}` : name;
}

/**
 * The change an Edit or Write proposes, as the diff an editor shows (ACP's `diff` content): the
 * person sees what is to be written when asked, and what was written after, not only a path.
 */
export function proposedChange(name: string, input: Record<string, unknown>): ToolCallContent[] {
  const path = stringField(input, "file_path");
  if (path === undefined) return [];
  if (name === "Edit" && typeof input.old_string === "string" && typeof input.new_string === "string") {
    return [{ type: "diff", path, oldText: input.old_string, newText: input.new_string }];
  }
  if (name === "Write" && typeof input.content === "string") {
    return [{ type: "diff", path, oldText: null, newText: input.content }];
  }
  return [];
}

/** The `tool_call` announcing a call (pending until its result comes). */
export function announcedToolCall(id: string, name: string, input: Record<string, unknown>): ToolCall {
  const change = proposedChange(name, input);
  return {
    toolCallId: id,
    title: toolTitle(name, input),
    kind: toolKind(name),
    status: "pending",
    rawInput: input,
    locations: toolLocations(input),
    ...(change.length > 0 && { content: change }),
  };
}

/**
 * A finished call's content: its result, after the change it made when it succeeded (an update's
 * content replaces what the editor showed, so the diff is sent again to stay in view).
 */
export function finishedContent(
  name: string,
  input: Record<string, unknown>,
  result: ToolResultBlock,
  terminalId?: string,
): ToolCallContent[] {
  return [
    ...(result.is_error ? [] : proposedChange(name, input)),
    ...(terminalId ? [{ type: "terminal" as const, terminalId }] : []),
    ...resultContent(result),
  ];
}

/** The result as text content for the editor (images are named, not sent). */
export function resultContent(result: ToolResultBlock): ToolCallContent[] {
  const text = toolResultText(result.content);
  return text === "" ? [] : [{ type: "content", content: { type: "text", text } }];
}
