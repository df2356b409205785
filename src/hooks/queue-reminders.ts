// Hook output meant for the model goes on the session's reminders channel; the loop turns it into
// one <system-reminder> message before its next request.
import type { SessionChannels } from "../tool/session-channels.js";

export function queueReminders(target: { channels: SessionChannels }, texts: readonly string[]): void {
  target.channels.reminders.send(...texts);
}
