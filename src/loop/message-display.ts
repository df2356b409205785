// MessageDisplay hooks between a turn's events and the screen: the model's streamed text is held
// until a line is complete, each batch of completed lines goes through the hooks, and what they
// answer is shown instead. When the message ends, its rest goes as the final flush and the message
// shown carries the displayed text. Only the events handed to a display change: the session has
// already stored the message and the model sees it as it was written.
import { randomUUID } from "node:crypto";
import type { HookRunner } from "../hooks/hook-runner.js";
import type { AssistantMessage } from "../messages/types.js";
import type { QueryEvent } from "./events.js";

/** The events as a person should see them; the same events untouched when no MessageDisplay hook exists. */
export async function* displayedThroughHooks<R>(
  events: AsyncGenerator<QueryEvent, R>,
  hooks: HookRunner | undefined,
  onWarning: (message: string) => void,
): AsyncGenerator<QueryEvent, R> {
  if (!hooks?.has("MessageDisplay")) return yield* events;
  const turnId = randomUUID();
  let message = newMessage();
  const flush = async (delta: string, final: boolean): Promise<string> => {
    const result = await hooks.messageDisplay({ turnId, messageId: message.id, index: message.index++, final, delta });
    for (const error of result.errors) onWarning(error);
    if (result.display !== delta) message.changed = true;
    message.shown += result.display;
    return result.display;
  };
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    const event = next.value;
    if (event.type === "text_delta") {
      message.pending += event.text;
      const end = message.pending.lastIndexOf("\n");
      if (end < 0) continue;
      const lines = message.pending.slice(0, end + 1);
      message.pending = message.pending.slice(end + 1);
      const shown = await flush(lines, false);
      if (shown) yield { type: "text_delta", text: shown };
    } else if (event.type === "stream_reset") {
      message = newMessage();
      yield event;
    } else if (event.type === "assistant") {
      const text = textOf(event.message);
      // Text that never streamed (a provider that does not stream) is flushed whole.
      const rest = message.index === 0 && message.pending === "" ? text : message.pending;
      if (text !== "" || message.index > 0) await flush(rest, true);
      yield message.changed ? { type: "assistant", message: withShownText(event.message, message.shown) } : event;
      message = newMessage();
    } else {
      yield event;
    }
  }
}

interface DisplayedMessage {
  id: string;
  index: number;
  /** Streamed text after the last complete line. */
  pending: string;
  /** Everything shown for the message so far. */
  shown: string;
  /** Whether a hook showed anything other than the text. */
  changed: boolean;
}

function newMessage(): DisplayedMessage {
  return { id: randomUUID(), index: 0, pending: "", shown: "", changed: false };
}

function textOf(message: AssistantMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
}

/** A copy of the message whose text is what was shown: in its first text block, the others dropped. */
function withShownText(message: AssistantMessage, shown: string): AssistantMessage {
  let placed = false;
  const content = message.content.flatMap((block): AssistantMessage["content"] => {
    if (block.type !== "text") return [block];
    if (placed) return [];
    placed = true;
    return [{ ...block, text: shown }];
  });
  return { ...message, content };
}
