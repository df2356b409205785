// What the library's query() tests share: a prompt stream that stays open (so control requests
// still have a session to reach) and the text of a tool result among the messages.
import type { SDKMessage, SDKUserMessage } from "../../src/sdk/index.js";

/**
 * A prompt stream that sends its message once `send()` is called (at once without `held`) and
 * stays open until `end()`.
 */
export function openPrompt(
  text: string,
  held = false,
): { prompt: AsyncIterable<SDKUserMessage>; send: () => void; end: () => void } {
  let send: () => void = () => undefined;
  let finish: () => void = () => undefined;
  const go = new Promise<void>((resolve) => {
    send = resolve;
  });
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  if (!held) send();
  async function* messages(): AsyncGenerator<SDKUserMessage> {
    await go;
    yield { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null };
    await ended;
  }
  return { prompt: messages(), send, end: finish };
}

/** Text of the tool result for `id` among the messages. */
export function resultText(messages: SDKMessage[], id: string): string | undefined {
  for (const message of messages) {
    if (message.type !== "user" || !Array.isArray(message.message?.content)) continue;
    for (const block of message.message.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type === "tool_result" && block.tool_use_id === id) return JSON.stringify(block.content);
    }
  }
  return undefined;
}
