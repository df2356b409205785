// A cron clock for tests: nobody waits a minute for a scheduled prompt.
import type { CronClock } from "../../../src/tools/cron-shared/clock.js";

/** Time that moves only when told to, firing the timers that came due, in order. */
export class FakeClock implements CronClock {
  private timers: Array<{ at: number; fire: () => void; id: number }> = [];
  private nextId = 0;
  constructor(public time: number) {}
  now = () => this.time;
  setTimer = (fire: () => void, ms: number) => {
    const id = ++this.nextId;
    this.timers.push({ at: this.time + ms, fire, id });
    return id;
  };
  clearTimer = (handle: unknown) => {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  };
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.fire();
    }
    this.time = end;
  }
}
