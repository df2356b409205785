// The two ways a person interrupts a running prompt, as the session sees them:
// - ESC: abort the query (any reason but 'interrupt'); every running call stops, the prompt ends.
// - A new message: always queued; it aborts the turn (reason 'interrupt') only when every running
//   call is 'cancel'. Then the prompt ends and the queued message starts the next one. Otherwise
//   nothing stops and the loop drains the message into its next model request.
import type { UserMessage } from "../messages/types.js";
import type { ToolUseContext } from "../tool/types.js";

type Store = Pick<ToolUseContext, "getAppState" | "setAppState">;

export type InterruptOutcome =
  /** Running calls were all 'cancel': the turn was aborted; the message starts the next prompt. */
  | "interrupted"
  /** A 'block' call runs, or none: the message waits for the next model request of this prompt. */
  | "queued";

/** Queues `message` and aborts the running turn when (and only when) every running call allows it. */
export function submitWhileRunning(
  store: Store,
  queryController: AbortController,
  message: UserMessage,
): InterruptOutcome {
  store.setAppState((prev) => ({ ...prev, queuedUserMessages: [...(prev.queuedUserMessages ?? []), message] }));
  if (store.getAppState().hasInterruptibleToolInProgress !== true) return "queued";
  queryController.abort("interrupt");
  return "interrupted";
}

/** Takes every queued message out, in one update so a message sent meanwhile is never lost. */
export function drainQueuedUserMessages(store: Pick<ToolUseContext, "setAppState">): UserMessage[] {
  let taken: UserMessage[] = [];
  store.setAppState((prev) => {
    if (!prev.queuedUserMessages || prev.queuedUserMessages.length === 0) return prev;
    taken = prev.queuedUserMessages;
    return { ...prev, queuedUserMessages: [] };
  });
  return taken;
}

export function hasQueuedUserMessages(store: Pick<ToolUseContext, "getAppState">): boolean {
  return (store.getAppState().queuedUserMessages?.length ?? 0) > 0;
}

/** True when the query was stopped by a new message rather than by ESC. */
export function wasInterruptedByNewMessage(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === "interrupt";
}
