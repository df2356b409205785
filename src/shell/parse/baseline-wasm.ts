// The bash grammar's wasm is compiled with V8's baseline compiler only (Liftoff): otherwise V8
// also optimises its functions with TurboFan on background threads, which took seconds of CPU on
// a loaded 2-core machine and stalled the session's event loop meanwhile.
//
// V8 takes that as a process-wide flag, and V8 also records its flags in every code cache it
// writes and refuses a cache written under other flags (the built CLI's chunks are compiled
// through such a cache, scripts/cached-chunks.mjs). So before the flag changes, a run that has no
// cache writes it now, holding what the session compiled so far (its start-up, which is what the
// cache is for), and nothing is written while the flag is on. `--no-liftoff-only` alone does not
// undo what `--liftoff-only` implied (no wasm tier-up): the flags stayed changed for the rest of
// the process, so no cache written afterwards was ever taken, and later wasm (ink's yoga) lost
// V8's usual tiers. Those are set back too, and V8's cache tag (its version and flags) is compared
// with the one from before to know that they are back. Setting the flag for the whole process
// before the cache is read was tried instead: it cost every start ~40 ms of CPU (node:v8 and
// Node's own modules compiled without their built-in cache) and ~0.7 MB.

import type { Language } from "web-tree-sitter";

/** A compiled WebAssembly module (named through web-tree-sitter: the build's TypeScript libs lack WebAssembly). */
export type WasmModule = Parameters<typeof Language.loadSync>[0];

/** The marks the code cache's loader reads and sets (scripts/cached-chunks.mjs). */
type Marks = typeof globalThis & {
  /** The loader's "write the cache now" for each chunk loaded without a usable cache. */
  __wardenSaveCodeCacheNow?: Array<() => void>;
  /** V8's flags differ from those the process started with: a code cache written now would be refused. */
  __wardenV8FlagsChanged?: boolean;
  /** Cache writes held back while the flags differed, to run once they are back. */
  __wardenOnV8FlagsRestored?: Array<() => void>;
};

/** How many compiles have the flag on: they may overlap, and only the last one turns it off. */
let compiling = 0;
/** V8's cache tag before the first change of its flags. */
let tagBeforeFlags: number | undefined;

/** What `withBaselineWasmOnly` hands its callback. */
export interface BaselineWasm {
  /**
   * Compiles every function of the modules now, on V8's background threads, instead of each at
   * its first call on the thread that calls it (V8's lazy compilation). A function compiled
   * lazily is compiled after the flags are set back (below), so with V8's usual tiers: the
   * grammar's wasm then went to TurboFan as it ran (~350 ms more CPU and ~20 MB more RSS for 8
   * commands). Compiled whole, all of it is baseline code, compiled while the main thread loads
   * web-tree-sitter's JavaScript rather than at the first parse (the lexer alone held the main
   * thread ~50 ms there). Lazy compilation is back on once the modules are compiled.
   */
  compileWhole(modules: readonly Uint8Array[]): Promise<WasmModule[]>;
}

/** The global WebAssembly object (the project's TypeScript libs declare only its types). */
function wasmApi(): { compile(bytes: Uint8Array): Promise<WasmModule> } {
  return (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;
}

/** Compiles `compile`'s wasm with the baseline compiler only. */
export async function withBaselineWasmOnly<T>(compile: (wasm: BaselineWasm) => Promise<T>): Promise<T> {
  const { cachedDataVersionTag, setFlagsFromString } = await import("node:v8");
  const compileWhole = async (modules: readonly Uint8Array[]): Promise<WasmModule[]> => {
    setFlagsFromString("--no-wasm-lazy-compilation");
    try {
      return await Promise.all(modules.map((bytes) => wasmApi().compile(bytes)));
    } finally {
      setFlagsFromString("--wasm-lazy-compilation");
    }
  };
  const marks = globalThis as Marks;
  tagBeforeFlags ??= cachedDataVersionTag();
  if (compiling === 0 && !marks.__wardenV8FlagsChanged) {
    for (const save of marks.__wardenSaveCodeCacheNow?.splice(0) ?? []) save();
  }
  marks.__wardenV8FlagsChanged = true;
  compiling += 1;
  setFlagsFromString("--liftoff-only");
  try {
    return await compile({ compileWhole });
  } finally {
    compiling -= 1;
    if (compiling === 0) {
      // Other wasm of this process (ink's yoga) keeps V8's usual tiers.
      setFlagsFromString("--no-liftoff-only");
      setFlagsFromString("--wasm-tier-up");
      setFlagsFromString("--wasm-dynamic-tiering");
      if (cachedDataVersionTag() === tagBeforeFlags) {
        marks.__wardenV8FlagsChanged = false;
        for (const write of marks.__wardenOnV8FlagsRestored?.splice(0) ?? []) write();
      }
    }
  }
}
