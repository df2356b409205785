// Collects the young generation of V8's heap when a model request has gone out and the young
// generation has no room left for a turn of tool calls, while the session waits for the answer.
//
// V8 empties its young generation (a few MB) when it is full, wherever the program happens to be;
// at start-up nearly everything in it is still alive, so each of those collections copies most of
// it and costs 2-10 ms (the longer on a busy machine, where its helper threads wait for a core).
// A cold session's first request often left with the young generation ~85% full, and its
// collection then fell into the next busy stretch: the first tool calls, between the model's
// answer and the follow-up request the user waits for (a turn of 8 small Reads allocates 1-1.5 MB).
// Collected while the session waits, there is room for the turn, at a moment that costs the
// session nothing it would notice: the model takes far longer to answer than the collection takes.
// When V8 has just collected it anyway (it is mostly empty), nothing is done: a second collection
// would only copy the survivors again.
//
// "While the session waits" means once the request has been out for a grace with nothing of its
// answer back, not at once: a model (or a local server) that answers within a few milliseconds
// leaves no wait, and a collection then (with fetching gc() and node:v8, ~8-10 ms of CPU) only
// delayed the answer's tool calls and the follow-up request by as much. Then V8 collects when it
// must, which, with less garbage made by the turn, may be after the follow-up request is out.
import { createRequire } from "node:module";
import { onNextRequestWritten, onNextResponse } from "../../providers/http-fetch.js";
import type { Provider } from "../../providers/types.js";
import { tracePhase } from "./phase-trace.js";
// The warm-up's grace, for the same reason: a request out that long with nothing of its answer
// back means the session waits on the model. A real model takes far longer.
import { WAITING_GRACE_MS } from "./warm-up.js";

/** What became of the collection planned for one request. */
export type YoungGcOutcome =
  /** Collected while the session waited. */
  | "collected"
  /** More than half of the young generation was free: nothing to do. */
  | "not needed"
  /** V8's gc() could not be had: the collection is left to V8. */
  | "unavailable"
  /** The answer had begun (its response head was back) within the grace: no wait, nothing done. */
  | "answered first";

export interface YoungGcOptions {
  /** Defaults to WAITING_GRACE_MS. */
  graceMs?: number;
  /** Told, for each request, what became of its collection (tests; phase traces say it too). */
  onOutcome?: (outcome: YoungGcOutcome) => void;
}

type MinorGc = (options: { type: "minor" }) => void;
type V8Module = typeof import("node:v8");

/** True when less than half of the young generation is free: too little for a turn of tool calls. */
export function youngGenerationWantsCollecting(usedBytes: number, availableBytes: number): boolean {
  return usedBytes > availableBytes;
}

// Node's modules through require(), loaded at the first collection (they are not on the way to
// the first request) and synchronously: in the very step that tells the request was written, not
// after an import's turns, when the answer may already be there.
const require = createRequire(import.meta.url);
let v8Module: V8Module | undefined;
/** V8's own gc(), made once; null when it cannot be had (the collection is then left to V8). */
let minorGc: MinorGc | null | undefined;

function loadMinorGc(v8: V8Module): MinorGc | null {
  // Node started with --expose-gc: the global one.
  const global = (globalThis as { gc?: unknown }).gc;
  if (typeof global === "function") return global as MinorGc;
  const { runInNewContext } = require("node:vm") as typeof import("node:vm");
  const tag = v8.cachedDataVersionTag();
  // V8 gives gc() to the contexts made after the flag is set: one small context to fetch it from.
  // The flag is set back at once, in the same synchronous step: V8 records its flags in every code
  // cache it writes and refuses one written under other flags (the built CLI's chunks are compiled
  // through such a cache, scripts/cached-chunks.mjs).
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
}

function collectYoungGeneration(): YoungGcOutcome {
  v8Module ??= require("node:v8") as V8Module;
  const v8 = v8Module;
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
  if (!young || !youngGenerationWantsCollecting(young.space_used_size, young.space_available_size)) {
    return "not needed";
  }
  if (minorGc === undefined) {
    try {
      minorGc = loadMinorGc(v8);
    } catch {
      minorGc = null;
    }
  }
  if (!minorGc) return "unavailable";
  minorGc({ type: "minor" });
  return "collected";
}

/**
 * The provider, with the young generation collected (when full enough) while each request waits
 * for its answer: once it has been out for the grace with no response back. Seen through the HTTP
 * fetch's moments (written, response head), not by wrapping the stream: a wrapper costs a little
 * on every event of every answer.
 */
export function collectYoungGenerationWhileWaiting(provider: Provider, options: YoungGcOptions = {}): Provider {
  const graceMs = options.graceMs ?? WAITING_GRACE_MS;
  return {
    name: provider.name,
    stream(request) {
      onNextRequestWritten(() => {
        let answered = false;
        onNextResponse(() => {
          answered = true;
        });
        const decide = () => {
          let outcome: YoungGcOutcome;
          if (answered) outcome = "answered first";
          else {
            try {
              outcome = collectYoungGeneration();
            } catch {
              // Only ever an optimisation: a failure leaves the collection to V8.
              outcome = "unavailable";
            }
          }
          tracePhase(`young_gc_${outcome.replace(" ", "_")}`);
          options.onOutcome?.(outcome);
        };
        // As the warm-up's grace timer: setImmediate comes after the event loop has read its
        // sockets, so an answer already there (a busy process past the grace) counts as begun.
        setTimeout(() => setImmediate(decide), graceMs).unref();
      });
      return provider.stream(request);
    },
  };
}
