// The clock the schedule runs on: real timers by default, a fake one in tests (nobody waits a
// minute for a cron job). Real timers are unref'd: a schedule never keeps a finished process alive.

export interface CronClock {
  now(): number;
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const realClock: CronClock = {
  now: () => Date.now(),
  setTimer: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
