// The order a stream-json reader relies on: the assistant message that holds a tool call is written
// before anything about that call (a `can_use_tool` or `hook_callback` request, its result). Calls
// start while the model still streams (loop/stream-turn.ts), so a question about one can be ready
// before the message that holds it has been written; it waits here until that message is out.
//
// A message being written is one "stream": the main loop's, or a foreground subagent's (named by the
// Agent call it runs for). A question waits while its call has not been shown and some stream is
// still open; once every open stream has ended without showing it, the call belongs to no streamed
// message (a background agent's) and the question goes at once. So nothing ever waits for a
// message that will not come.

/** The key of the main loop's stream; a subagent's is its parent Agent call's id. */
export const MAIN_STREAM = "";

export class CallOrder {
  private readonly shownIds = new Set<string>();
  private readonly open = new Set<string>();
  private waiters: Array<{ toolUseId: string; release: () => void }> = [];

  /** A model request of this stream has started: its message will be written when it ends. */
  streamStarted(stream: string): void {
    this.open.add(stream);
  }

  /** The stream's message has been written (or it ended without one). */
  streamEnded(stream: string): void {
    if (this.open.delete(stream)) this.settle();
  }

  /** These calls are now on the wire, in a written assistant message. */
  shown(toolUseIds: Iterable<string>): void {
    for (const id of toolUseIds) this.shownIds.add(id);
    this.settle();
  }

  /** Resolves once a question about this call may be written (or the signal gave up on it). */
  whenShown(toolUseId: string, signal?: AbortSignal): Promise<void> {
    if (this.shownIds.has(toolUseId) || this.open.size === 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        toolUseId,
        release: () => {
          signal?.removeEventListener("abort", waiter.release);
          resolve();
        },
      };
      signal?.addEventListener("abort", waiter.release, { once: true });
      this.waiters.push(waiter);
    });
  }

  private settle(): void {
    const ready = this.waiters.filter((w) => this.shownIds.has(w.toolUseId) || this.open.size === 0);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const waiter of ready) waiter.release();
  }
}
