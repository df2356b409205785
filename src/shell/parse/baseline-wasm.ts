// The bash grammar's wasm is compiled with V8's baseline compiler only (Liftoff): otherwise V8
// also optimises its functions with TurboFan on background threads, which took seconds of CPU on
// a loaded 2-core machine and stalled the session's event loop meanwhile.
//
// V8 takes that as a process-wide flag, and V8 also records its flags in every code cache it
// writes: a cache written after the flag was turned on and off again is refused by every fresh
// process (the built CLI's chunks are compiled through such a cache, scripts/cached-chunks.mjs,
// which a run without a cache writes at its exit). So before the flag changes, a run that has no
// cache writes it now, holding what the session compiled so far (its start-up, which is what the
// cache is for), and marks that V8's flags changed, so that nothing is written at exit. Setting
// the flag for the whole process before the cache is read was tried instead: it cost every start
// ~40 ms of CPU (node:v8 and Node's own modules compiled without their built-in cache) and ~0.7 MB.

/** The marks the code cache's loader reads and sets (scripts/cached-chunks.mjs). */
type Marks = typeof globalThis & {
  /** The loader's "write the cache now" for each chunk loaded without a usable cache. */
  __wardenSaveCodeCacheNow?: Array<() => void>;
  /** V8's flags changed while the process ran: a code cache it wrote would be refused. */
  __wardenV8FlagsChanged?: boolean;
};

/** Compiles `compile`'s wasm with the baseline compiler only. */
export async function withBaselineWasmOnly<T>(compile: () => Promise<T>): Promise<T> {
  const { setFlagsFromString } = await import("node:v8");
  const marks = globalThis as Marks;
  if (!marks.__wardenV8FlagsChanged) {
    for (const save of marks.__wardenSaveCodeCacheNow ?? []) save();
    marks.__wardenV8FlagsChanged = true;
  }
  setFlagsFromString("--liftoff-only");
  try {
    return await compile();
  } finally {
    // Other wasm of this process (ink's yoga) keeps V8's usual tiers.
    setFlagsFromString("--no-liftoff-only");
  }
}
