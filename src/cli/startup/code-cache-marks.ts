// The built CLI compiles its chunks through V8's code cache (scripts/cached-chunks.mjs), written at
// first with what a session compiles up to its first request. The first turn of tool calls compiles
// the tools' path (~10 ms of CPU before the follow-up request, on every start without it), so the
// loader completes a start-up cache once, with that path, when asked here. Only for a turn of
// file tools: each path in the cache is deserialized at every start, and Bash's would grow the
// cache by ~17% (the file tools' by ~7%). Under tsx (tests, development) there is no loader and
// nothing happens.

/** The tools whose path a cache may hold: those of a session's usual first turn. */
const FILE_TOOLS = new Set(["Read", "Glob", "Grep", "Edit", "Write"]);

type Marks = typeof globalThis & {
  /** The loader's "complete the cache with what has been compiled so far", one per cached chunk. */
  __wardenCompleteCodeCache?: Array<() => void>;
};

/**
 * Called when the follow-up request of the session's first turn of tool calls is out, with the
 * names of that turn's calls.
 */
export function firstToolTurnFollowedUp(toolNames: readonly string[]): void {
  if (toolNames.length === 0 || !toolNames.every((name) => FILE_TOOLS.has(name))) return;
  for (const complete of (globalThis as Marks).__wardenCompleteCodeCache?.splice(0) ?? []) {
    try {
      complete();
    } catch {
      // The cache only saves time: a failure to write it costs that and nothing else.
    }
  }
}
