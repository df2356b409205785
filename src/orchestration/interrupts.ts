// The two ways a person interrupts a running prompt, as the tool calls see them:
// - ESC: abort the query (any reason but 'interrupt'); every running call stops, the prompt ends.
// - A new message (queued by the session, src/loop/user-message-queue.ts): it aborts the turn
//   (reason 'interrupt') only when every running call is 'cancel'. Then the prompt ends and the
//   queued message starts the next one. Otherwise nothing stops and the loop drains the message
//   into its next model request.
import type { ToolUseContext } from "../tool/types.js";

export type InterruptOutcome =
  /** Running calls were all 'cancel': the turn was aborted; the message starts the next prompt. */
  | "interrupted"
  /** A 'block' call runs, or none: the message waits for the next model request of this prompt. */
  | "queued";

/**
 * A new message has arrived: aborts the running turn with reason 'interrupt' when (and only when)
 * every running call allows it, as the streaming executor publishes in AppState.
 */
export function interruptTurnIfAllowed(
  store: Pick<ToolUseContext, "getAppState">,
  queryController: AbortController,
): InterruptOutcome {
  if (store.getAppState().hasInterruptibleToolInProgress !== true) return "queued";
  queryController.abort("interrupt");
  return "interrupted";
}

/** True when the query was stopped by a new message rather than by ESC. */
export function wasInterruptedByNewMessage(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === "interrupt";
}
