import { type UserMessage, userText } from "../messages/types.js";
import type { ToolUseContext } from "../tool/types.js";

export function wrapSystemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

/**
 * Takes every pending reminder out of AppState and returns them as one meta user message, or
 * undefined when there are none. The take happens inside one setAppState update so a reminder
 * queued at the same moment is either taken now or left for the next request, never lost.
 */
export function drainPendingReminders(context: Pick<ToolUseContext, "setAppState">): UserMessage | undefined {
  let taken: string[] = [];
  context.setAppState((prev) => {
    if (!prev.pendingReminders || prev.pendingReminders.length === 0) return prev;
    taken = prev.pendingReminders;
    return { ...prev, pendingReminders: [] };
  });
  if (taken.length === 0) return undefined;
  return userText(wrapSystemReminder(taken.join("\n\n")), true);
}
