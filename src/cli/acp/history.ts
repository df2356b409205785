// A loaded session's conversation as the editor is shown it again (ACP `session/load`): what the
// person wrote as user message chunks, the answers and thinking as agent chunks, each tool call
// with its result. What the harness wrote (reminders, attachments, compaction summaries) is the
// model's business, not the person's, and is left out, as it was never shown live either; so is
// the note a cancelled turn leaves.
import type { SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { INTERRUPTED_BY_USER, INTERRUPTED_DURING_TOOLS } from "../../loop/query.js";
import type { Message } from "../../messages/types.js";
import { announcedToolCall, finishedContent } from "./tool-calls.js";

/**
 * What the loop writes as a user message when a turn is cancelled: the model's note, not the
 * person's words. Live, the editor saw the prompt end as cancelled; shown again it would read as
 * if the person had typed it.
 */
const INTERRUPTION_MARKERS = new Set([INTERRUPTED_BY_USER, INTERRUPTED_DURING_TOOLS]);

export function historyUpdates(messages: readonly Message[]): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text" && block.text !== "") {
          updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
        } else if (block.type === "thinking" && block.thinking !== "") {
          updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
        } else if (block.type === "tool_use") {
          calls.set(block.id, { name: block.name, input: block.input });
          updates.push({ sessionUpdate: "tool_call", ...announcedToolCall(block.id, block.name, block.input) });
        }
      }
      continue;
    }
    for (const block of message.content) {
      if (block.type === "tool_result") {
        updates.push({
          sessionUpdate: "tool_call_update",
          toolCallId: block.tool_use_id,
          status: block.is_error ? "failed" : "completed",
          content: finishedContent(
            calls.get(block.tool_use_id)?.name ?? "",
            calls.get(block.tool_use_id)?.input ?? {},
            block,
          ),
        });
      } else if (
        block.type === "text" &&
        !message.isMeta &&
        block.text !== "" &&
        !INTERRUPTION_MARKERS.has(block.text)
      ) {
        updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: block.text } });
      }
    }
  }
  return updates;
}
