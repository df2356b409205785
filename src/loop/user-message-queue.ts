// Messages the user sends while a prompt runs. They wait in AppState.queuedUserMessages until the
// loop's next model request takes them (or, when the message interrupted the turn, until the
// session starts the next prompt with them). Whether a message may interrupt the running tool
// calls is orchestration's call (src/orchestration/interrupts.ts).
import type { UserMessage } from "../messages/types.js";
import { type InterruptOutcome, interruptTurnIfAllowed } from "../orchestration/interrupts.js";
import type { ToolUseContext } from "../tool/types.js";

type Store = Pick<ToolUseContext, "getAppState" | "setAppState">;

/** Queues `message` and aborts the running turn when (and only when) every running call allows it. */
export function submitWhileRunning(
  store: Store,
  queryController: AbortController,
  message: UserMessage,
): InterruptOutcome {
  store.setAppState((prev) => ({ ...prev, queuedUserMessages: [...(prev.queuedUserMessages ?? []), message] }));
  return interruptTurnIfAllowed(store, queryController);
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
