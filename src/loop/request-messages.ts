import type { Message, UserMessage } from "../messages/types.js";

/**
 * The conversation as sent to the model. Consecutive user messages (tool results followed by a
 * reminder or an interruption note) are merged into one, because several OpenAI-compatible
 * servers reject two user turns in a row; empty assistant messages are dropped because the
 * Anthropic API rejects them. The mapping is a pure function of the history, so the same history
 * always gives the same bytes (prompt caching depends on it).
 */
export function toRequestMessages(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      if (message.content.length > 0) out.push(message);
      continue;
    }
    const last = out[out.length - 1];
    if (last?.role === "user") {
      out[out.length - 1] = { role: "user", content: [...last.content, ...message.content] } satisfies UserMessage;
    } else {
      out.push(message.isMeta ? { role: "user", content: message.content } : message);
    }
  }
  return out;
}
