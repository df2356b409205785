// A turn nobody typed. While no prompt runs, things keep arriving for the model: a background
// command or agent ends, a scheduled prompt falls due, another session's message is let in, a
// teammate writes to its lead. Each of them sends its text on the session's channels and raises
// the wake flag (src/tool/session-channels.ts); an
// interactive session listens here and, when it is idle, starts a turn that carries what waits
// (`SessionEngine.submitMessage()` without a prompt), as a person would expect of an agent that
// said it would look at the result when the job ends. The Agent SDK's stream-json session does
// the same (src/cli/control-protocol/idle-wake.ts). A headless `-p` prompt has no "later": it
// carries what arrives while it runs and ends with it.
import { hasUnread, waitForMail } from "../session/mailbox.js";
import type { AppState } from "../tool/app-state.js";
import type { SessionChannels } from "../tool/session-channels.js";

type Store = { getAppState(): AppState; channels: SessionChannels };

/** The lead's mailbox, when this session leads a team. */
function leadMailbox(state: AppState): { dir: string; name: string } | undefined {
  const team = state.team;
  return team?.isLead ? { dir: team.dir, name: team.memberName } : undefined;
}

/** True when a turn should start for what waits: asked for, and something is there for the model. */
export function wakeDue(store: Store): boolean {
  const { channels } = store;
  if (!channels.wake.raised) return false;
  if (channels.reminders.size > 0 || channels.userMessages.size > 0) return true;
  const mailbox = leadMailbox(store.getAppState());
  return mailbox !== undefined && hasUnread(mailbox.dir, mailbox.name);
}

/**
 * Tells listeners when a turn is due, and watches the lead's mailbox while the session is idle and
 * someone listens (teammates write it from other processes too, so it is not a state change here).
 */
export class WakeSignal {
  private readonly listeners = new Set<() => void>();
  private idle = true;
  private mailWatch: AbortController | undefined;

  constructor(private readonly store: Store) {
    // What can make a turn due arrives on these channels; each send is checked (state changes too:
    // a lead's team appearing).
    const check = () => this.check();
    store.channels.wake.subscribe(check);
    store.channels.reminders.subscribe(check);
    store.channels.userMessages.subscribe(check);
  }

  /** `listener` is called whenever a turn is due (again on later changes until one starts). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    this.watchMail();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopWatchingMail();
    };
  }

  /** Every new state of the session's store, and every send on its wake channels, passes here. */
  check(): void {
    if (this.idle && this.listeners.size > 0 && wakeDue(this.store)) for (const listener of this.listeners) listener();
  }

  /** A prompt starts: what waits goes with its requests, so nothing more is due. */
  promptStarted(): void {
    this.idle = false;
    this.stopWatchingMail();
    this.store.channels.wake.clear();
  }

  /** The prompt ended: what arrived after its last request is due now. */
  promptEnded(): void {
    this.idle = true;
    if (this.store.channels.wake.raised && !wakeDue(this.store)) {
      this.store.channels.wake.clear();
    } else {
      this.check();
    }
    this.watchMail();
  }

  private watchMail(): void {
    if (!this.idle || this.listeners.size === 0 || this.mailWatch) return;
    const mailbox = leadMailbox(this.store.getAppState());
    if (!mailbox) return;
    const watch = new AbortController();
    this.mailWatch = watch;
    void waitForMail(mailbox.dir, mailbox.name, watch.signal).then(() => {
      if (watch.signal.aborted) return;
      this.mailWatch = undefined;
      // Still idle and nobody started a turn for it: it is due now (raising the flag says so).
      this.store.channels.wake.raise();
    });
  }

  private stopWatchingMail(): void {
    this.mailWatch?.abort();
    this.mailWatch = undefined;
  }
}
