// Hook output meant for the model waits in AppState.pendingReminders; the loop turns it into one
// <system-reminder> message before its next request.
import type { AppState } from "../tool/app-state.js";

export function queueReminders(
  target: { setAppState(update: (prev: AppState) => AppState): void },
  texts: readonly string[],
): void {
  if (texts.length === 0) return;
  target.setAppState((prev) => ({ ...prev, pendingReminders: [...(prev.pendingReminders ?? []), ...texts] }));
}
