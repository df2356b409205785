// A one-time load that a warm-up may pace. A warm-up (work done early only because the session
// is idle) passes `pace`, which the load awaits between its steps, so that each step starts only
// while the session has nothing better to do. Anyone who needs the result now loads without
// `pace`, and from then on the load under way stops waiting on it: a paced load never makes a
// caller in a hurry wait longer than an unpaced one would.

/** Resolves when the session can spare the CPU for the next step of a warm-up. */
export type Pace = () => Promise<void>;

export class Pacer {
  private hurried = false;
  private hurryWaiters: Array<() => void> = [];

  /** From now on every gate of this load opens at once. */
  hurry(): void {
    if (this.hurried) return;
    this.hurried = true;
    for (const wake of this.hurryWaiters.splice(0)) wake();
  }

  /** Awaited between two steps: `pace`, unless someone is waiting for the result (or no pace). */
  async gate(pace: Pace | undefined): Promise<void> {
    if (pace === undefined || this.hurried) return;
    await Promise.race([pace(), new Promise<void>((resolve) => this.hurryWaiters.push(resolve))]);
  }
}
