// `hook_context`: text for the model that arrived outside a tool result (a hook's
// additionalContext, a background command that finished) travels on the session's reminders
// channel; the loop drains it before the request (loop/reminders.ts) and all of it goes out here
// as one reminder. The source only reads what the loop took.
import type { AttachmentSource } from "../../tool/types.js";

export function hookContextSource(): AttachmentSource {
  return {
    kind: "hook_context",
    collect({ arrived }) {
      const texts = arrived?.reminders ?? [];
      return texts.length > 0 ? [{ text: texts.join("\n\n") }] : undefined;
    },
  };
}
