// The bash grammar's wasm is compiled with V8's baseline compiler only (Liftoff): otherwise V8
// also optimises its functions with TurboFan on background threads, which took seconds of CPU on
// a loaded 2-core machine and stalled the session's event loop meanwhile.
//
// V8 takes that as a process-wide flag, and V8 also records its flags in every code cache it
// writes: a cache written after the flag was turned on and off again is refused by every fresh
// process (the built CLI's chunks are compiled through such a cache, scripts/cached-chunks.mjs).
// So a process that can decide up front (the CLI outside the interactive UI) asks for the flag
// before anything is compiled: the cache's loader sets it before it consults the cache (and keeps
// the caches of such processes apart), and the grammar then compiles without touching flags. Any
// other process turns the flag on for the grammar's compilation only and marks that it did, so
// that no cache is written from it.
/** The marks the code cache's loader reads (scripts/cached-chunks.mjs). */
type Marks = typeof globalThis & {
  /**
   * Asked for by the CLI's entry (src/cli/main.ts) before any chunk loads: the loader then sets
   * --liftoff-only for the whole process.
   */
  __wardenBaselineWasmWanted?: boolean;
  /** Set by the loader once --liftoff-only is on for the whole process. */
  __wardenBaselineWasmSet?: boolean;
  /** V8's flags changed while the process ran: a code cache it wrote would be refused. */
  __wardenV8FlagsChanged?: boolean;
};

/** Compiles `compile`'s wasm with the baseline compiler only. */
export async function withBaselineWasmOnly<T>(compile: () => Promise<T>): Promise<T> {
  const marks = globalThis as Marks;
  if (marks.__wardenBaselineWasmSet) return compile();
  // Loaded here, not at the top: the CLI's entry imports this file, and node:v8 costs its start-up.
  const { setFlagsFromString } = await import("node:v8");
  marks.__wardenV8FlagsChanged = true;
  setFlagsFromString("--liftoff-only");
  try {
    return await compile();
  } finally {
    // Other wasm of this process (ink's yoga) keeps V8's usual tiers.
    setFlagsFromString("--no-liftoff-only");
  }
}
