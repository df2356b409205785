// Messages the user sends while a prompt runs. They wait on the session's userMessages channel until the
// loop's next model request takes them (or, when the message interrupted the turn, until the
// session starts the next prompt with them). Whether a message may interrupt the running tool
// calls is orchestration's call (src/orchestration/interrupts.ts).
import type { UserMessage } from "../messages/types.js";
import { type InterruptOutcome, interruptTurnIfAllowed } from "../orchestration/interrupts.js";
import type { ToolUseContext } from "../tool/types.js";

type Store = Pick<ToolUseContext, "getAppState" | "setAppState" | "channels">;

/** Queues `message` and aborts the running turn when (and only when) every running call allows it. */
export function submitWhileRunning(
  store: Store,
  queryController: AbortController,
  message: UserMessage,
): InterruptOutcome {
  store.channels.userMessages.send(message);
  return interruptTurnIfAllowed(store, queryController);
}

/** Takes every queued message out; a message sent meanwhile waits for the next drain. */
export function drainQueuedUserMessages(store: Pick<ToolUseContext, "channels">): UserMessage[] {
  return store.channels.userMessages.drain();
}

export function hasQueuedUserMessages(store: Pick<ToolUseContext, "channels">): boolean {
  return store.channels.userMessages.size > 0;
}
