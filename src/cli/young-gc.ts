// Collects the young generation of V8's heap each time a model request has gone out, while the
// session waits for the answer.
//
// V8 empties its young generation (a few MB) when it is full, wherever the program happens to be;
// at start-up nearly everything in it is still alive, so each of those collections copies most of
// it and costs 2-10 ms (the longer on a busy machine, where its helper threads wait for a core).
// A cold session's first request left with the young generation ~85% full, so the collection fell
// into the next busy stretch: the first tool calls, between the model's answer and the follow-up
// request the user waits for. Collected as the request leaves, the young generation has room for
// a whole turn of tool calls, and the collection costs the session nothing it would notice: the
// model takes far longer to answer than the collection takes.
import { onNextRequestWritten } from "../providers/http-fetch.js";
import type { Provider } from "../providers/types.js";

type MinorGc = (options: { type: "minor" }) => void;

/** V8's own gc(), made once; null when it cannot be had (the collection is then left to V8). */
let minorGc: Promise<MinorGc | null> | undefined;

function loadMinorGc(): Promise<MinorGc | null> {
  minorGc ??= (async () => {
    // Node started with --expose-gc: the global one.
    const global = (globalThis as { gc?: unknown }).gc;
    if (typeof global === "function") return global as MinorGc;
    try {
      // Loaded here, not at start-up: neither module is on the way to the first request.
      const [v8, { runInNewContext }] = await Promise.all([import("node:v8"), import("node:vm")]);
      const tag = v8.cachedDataVersionTag();
      // V8 gives gc() to the contexts made after the flag is set: one small context to fetch it
      // from. The flag is set back at once, in the same synchronous step: V8 records its flags in
      // every code cache it writes and refuses one written under other flags (the built CLI's
      // chunks are compiled through such a cache, scripts/cached-chunks.mjs).
      v8.setFlagsFromString("--expose-gc");
      let gc: unknown;
      try {
        gc = runInNewContext("gc");
      } finally {
        v8.setFlagsFromString("--no-expose-gc");
      }
      // Flags not back as they were (a V8 that hashes them otherwise): no cache may be spoiled, so
      // nothing is collected; and a gc() that is not a function is none.
      return v8.cachedDataVersionTag() === tag && typeof gc === "function" ? (gc as MinorGc) : null;
    } catch {
      return null;
    }
  })();
  return minorGc;
}

function collectYoungGeneration(): void {
  void loadMinorGc().then((gc) => {
    try {
      gc?.({ type: "minor" });
    } catch {
      // Only ever an optimisation.
    }
  });
}

/** The provider, with the young generation collected as each of its requests is written. */
export function collectYoungGenerationWhileWaiting(provider: Provider): Provider {
  return {
    name: provider.name,
    stream(request) {
      onNextRequestWritten(collectYoungGeneration);
      return provider.stream(request);
    },
  };
}
