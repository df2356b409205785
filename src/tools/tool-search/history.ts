// Which deferred tools a conversation has already loaded, read back from its messages. AppState
// does not survive a resumed session, but the transcript does: a resumed conversation must keep
// sending the schemas of the tools it found (and may already be calling), or its calls would fail.
import type { Message } from "../../messages/types.js";
import { toolResultText } from "../../messages/types.js";
import { TOOL_SEARCH_TOOL_NAME } from "../../tool/deferred.js";

const FUNCTION_LINE = /<function>(\{.*\})<\/function>/g;

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
      for (const match of toolResultText(block.content).matchAll(FUNCTION_LINE)) {
        try {
          add((JSON.parse(match[1] as string) as { name?: unknown }).name);
        } catch {
          // Not one of our function lines: skip it.
        }
      }
    }
  }
  return names;
}
