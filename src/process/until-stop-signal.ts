/**
 * Resolves on the first SIGINT or SIGTERM, for a server that runs until it is told to stop.
 *
 * Call it before the server says it is up: whoever reads that line may send the signal at once,
 * and one that comes before a listener exists ends the process by the signal's default action
 * (it did, for `mcp serve`, in about one start in three when stopped right after its token line).
 *
 * The listeners stay on until the caller's cleanup is done, not `once`: the MCP child registry
 * (src/mcp/child-registry.ts) and signal-exit (loaded by ink) both raise a signal again when they
 * find no other listener for it, and a `once` listener removes itself before they look, so the
 * server died by the signal mid-close instead of closing and exiting 0.
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
