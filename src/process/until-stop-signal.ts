/**
 * Resolves on the first SIGINT or SIGTERM, for a server that runs until it is told to stop.
 *
 * The listeners stay on until the caller's cleanup is done, not `once`: signal-exit (loaded by
 * some dependencies, sometimes only after start) re-sends a signal to the process when it finds
 * itself the only listener left, and a `once` listener removes itself before signal-exit looks,
 * so the server would die by the signal mid-cleanup instead of closing and exiting 0.
 */
export function untilStopSignal(): Promise<() => void> {
  return new Promise((resolve) => {
    const stop = () => {
      // A second signal while closing is ignored here; the caller's close is already under way.
      resolve(() => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      });
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
