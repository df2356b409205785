// `hook_context`: text queued for the model outside a tool result (a hook's additionalContext, a
// background command that finished) waits in AppState.pendingReminders; all of it goes out as one
// reminder before the next request.
import type { AttachmentSource } from "../../tool/types.js";

export function hookContextSource(): AttachmentSource {
  return {
    kind: "hook_context",
    collect({ context }) {
      let taken: string[] = [];
      // Taken inside one update, so a text queued at the same moment is taken now or next time, never lost.
      context.setAppState((prev) => {
        if (!prev.pendingReminders || prev.pendingReminders.length === 0) return prev;
        taken = prev.pendingReminders;
        return { ...prev, pendingReminders: [] };
      });
      return taken.length > 0 ? [{ text: taken.join("\n\n") }] : undefined;
    },
  };
}
