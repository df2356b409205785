// Milliseconds on the monotonic clock, for durations measured from a session's start. Not
// performance.now(): the global `performance` loads perf_hooks and ten more of Node's modules on
// first use (~2 ms of start-up on this project's machine), for one number.

export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
