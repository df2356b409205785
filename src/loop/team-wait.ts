// A lead with a team, at the end of its turn: while a teammate still works, the session waits for
// the next message in the lead's mailbox and goes on with it (SendMessage's mailbox attachment
// delivers it), rather than ending while its team works. It stops waiting once every teammate is
// idle with nothing in its mailbox, or stopped, and nothing is waiting for the lead.
import { hasUnread, waitForMail } from "../session/mailbox.js";
import type { AppState } from "../tool/app-state.js";
import type { TeamRuntime } from "../tool/types.js";

/** True when a message for the lead arrived (go on with it); false when there is nothing to wait for. */
export async function waitForTeamMail(
  state: AppState,
  runtime: TeamRuntime | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  const team = state.team;
  if (!team?.isLead || !runtime) return false;
  while (!signal.aborted) {
    if (hasUnread(team.dir, team.memberName)) return true;
    // An idle teammate with a message waiting is about to work (it wakes on its own schedule).
    const busy = runtime
      .members(team.teamName)
      .some((m) => m.state === "working" || (m.state === "idle" && hasUnread(team.dir, m.name)));
    if (!busy) return false;
    const stopWaiting = new AbortController();
    const onAbort = () => stopWaiting.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    await Promise.race([
      waitForMail(team.dir, team.memberName, stopWaiting.signal),
      runtime.changed(stopWaiting.signal),
    ]);
    signal.removeEventListener("abort", onAbort);
    stopWaiting.abort();
  }
  return false;
}
