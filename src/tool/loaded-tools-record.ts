// How a conversation records which deferred tools ToolSearch loaded: one
// `<function>{"name": ..., "description": ..., "parameters": ...}</function>` line per tool in the
// ToolSearch result. The ToolSearch tool writes these lines; a resumed session reads them back
// (src/mcp/session-setup.ts), because AppState does not survive a resume but the transcript does,
// and a resumed conversation must keep sending the schemas of the tools it found (and may already
// be calling), or its calls would fail. Writer and reader live here, together, so they cannot drift.
import type { Message } from "../messages/types.js";
import { toolResultText } from "../messages/types.js";
import { TOOL_SEARCH_TOOL_NAME } from "./deferred.js";
import type { JSONSchema } from "./types.js";

export interface LoadedToolDescription {
  name: string;
  description: string;
  parameters: JSONSchema;
}

/** The line a ToolSearch result carries for one tool it loaded. */
export function renderLoadedToolLine(tool: LoadedToolDescription): string {
  return `<function>${JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters })}</function>`;
}

const LOADED_TOOL_LINE = /<function>(\{.*\})<\/function>/g;

/** Names loaded by ToolSearch results in `messages`, in the order found, without duplicates. */
export function loadedToolNamesFromMessages(messages: readonly Message[]): string[] {
  const searchIds = new Set<string>();
  const names: string[] = [];
  const add = (name: unknown) => {
    if (typeof name === "string" && !names.includes(name)) names.push(name);
  };
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "tool_use" && block.name === TOOL_SEARCH_TOOL_NAME) searchIds.add(block.id);
      if (block.type !== "tool_result" || block.is_error || !searchIds.has(block.tool_use_id)) continue;
      for (const match of toolResultText(block.content).matchAll(LOADED_TOOL_LINE)) {
        try {
          add((JSON.parse(match[1] as string) as { name?: unknown }).name);
        } catch {
          // Not one of our lines: skip it.
        }
      }
    }
  }
  return names;
}
