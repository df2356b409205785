// `auto_mode`: while the permission mode is auto, calls that would ask the user are judged by a
// classifier instead. The model is told when the mode starts (in full) and reminded every few
// requests (one line), so it works on without waiting for approvals it will not get, and adapts
// when a call is refused instead of repeating it.
import type { AttachmentSource } from "../../tool/types.js";

export const AUTO_MODE_REMINDER_EVERY = 10;

const FULL =
  "Auto mode is on: tool calls that would normally wait for the user's approval are judged by a safety classifier instead, and nobody is watching to approve them. Work on without asking for confirmation. A refused call comes back with the reason: do not repeat it unchanged; find a safer way or explain what you need. Destructive or irreversible actions (deleting data, force-pushing, spending money) still need the user's explicit request.";
const SHORT = "Auto mode is still on: a classifier approves or refuses calls; adapt to refusals, do not repeat them.";

export function autoModeSource(): AttachmentSource {
  let since: number | undefined;
  return {
    kind: "auto_mode",
    collect({ context, turn }) {
      if (context.getAppState().toolPermissionContext.mode !== "auto") {
        since = undefined;
        return undefined;
      }
      if (since === undefined) {
        since = turn;
        return [{ text: FULL }];
      }
      return (turn - since) % AUTO_MODE_REMINDER_EVERY === 0 ? [{ text: SHORT }] : undefined;
    },
    afterCompaction({ context }) {
      return context.getAppState().toolPermissionContext.mode === "auto" ? FULL : undefined;
    },
  };
}
