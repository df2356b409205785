// The young generation is collected while the session waits for the model (src/cli/startup/young-gc.ts):
// a forced minor collection follows a request that has been out for the grace with no answer, when
// the young generation is more than half full; an answer that comes within the grace leaves it to
// V8 (a collection then would only delay the answer's tool calls and the next request, as it did
// for the 8-Reads follow-up); and V8's flags are left as they were (the built CLI's code cache is
// refused when they differ, see scripts/cached-chunks.mjs).
import { constants, type PerformanceEntry, PerformanceObserver, performance } from "node:perf_hooks";
import { cachedDataVersionTag, getHeapSpaceStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import {
  collectYoungGenerationWhileWaiting,
  type YoungGcOutcome,
  youngGenerationWantsCollecting,
} from "../../src/cli/startup/young-gc.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { onNextRequestWritten } from "../../src/providers/http-fetch.js";
import type { ModelRequest } from "../../src/providers/types.js";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";

const server = scriptedModelServerFixture();

function request(): ModelRequest {
  return {
    model: "claude-test",
    system: "test",
    messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    tools: [],
    maxTokens: 100,
    signal: new AbortController().signal,
  };
}

interface GcDetail {
  kind: number;
  flags: number;
}

/** Minor collections someone asked for (gc()), as Node reports them, from now on. */
function watchForcedMinorCollections(): { seen: number[]; stop(): void } {
  const seen: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail: GcDetail }>) {
      const forced = (entry.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0;
      if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR && forced) seen.push(entry.startTime);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return { seen, stop: () => observer.disconnect() };
}

/** Where the filler's objects go, so that they are really allocated; each one is garbage at once. */
const lastAllocated: unknown[] = [undefined];
/**
 * Allocates short-lived objects until the young generation is over half full, in small steps: filled
 * close to the brim, the next few allocations made V8 collect it by itself before the grace was
 * over, and the collection then (rightly) found nothing to do.
 */
function fillYoungGeneration(): void {
  for (let round = 0; round < 100_000; round++) {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    if (!young || young.space_used_size > 1.2 * young.space_available_size) return;
    for (let i = 0; i < 100; i++) lastAllocated[0] = new Array(16);
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Headers held this long: the session waits on the model, well past the grace. */
const SLOW_ANSWER_MS = 200;

describe("collecting the young generation while waiting on the model", () => {
  it("collects it once each request has waited past the grace, and passes the answer through", async () => {
    const outcomes: YoungGcOutcome[] = [];
    const provider = collectYoungGenerationWhileWaiting(
      createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
      { onOutcome: (outcome) => outcomes.push(outcome) },
    );
    const collections = watchForcedMinorCollections();
    try {
      for (const text of ["first", "second"]) {
        // V8 may still collect by itself during the grace (a busy machine, the test runner's own
        // work), and then nothing is left to do: a request is tried again, up to three times.
        let collectedAfterWrite = false;
        for (let attempt = 0; attempt < 3 && !collectedAfterWrite; attempt++) {
          server.enqueue(reply().delayHeaders(SLOW_ANSWER_MS).text(text));
          let writtenAt = Number.POSITIVE_INFINITY;
          // Before the provider's own listener (listeners run in the order they were added).
          onNextRequestWritten(() => {
            writtenAt = performance.now();
            fillYoungGeneration();
          });
          const before = outcomes.length;
          const deltas: string[] = [];
          for await (const event of provider.stream(request()))
            if (event.type === "text_delta") deltas.push(event.text);
          expect(deltas.join("")).toBe(text);
          await until(() => outcomes.length > before);
          expect(["collected", "not needed"]).toContain(outcomes[before]);
          collectedAfterWrite = outcomes[before] === "collected" && collections.seen.some((at) => at >= writtenAt);
        }
        expect(collectedAfterWrite, `outcomes: ${outcomes.join(", ")}`).toBe(true);
      }
    } finally {
      collections.stop();
    }
  });

  it("leaves it to V8 when the answer comes within the grace: no collection on the way to the tool calls", async () => {
    server.enqueue(reply().text("at once"));
    const outcomes: YoungGcOutcome[] = [];
    const provider = collectYoungGenerationWhileWaiting(
      createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
      // A grace no in-process answer takes as long to come back in: the answer is surely first.
      { graceMs: 1_000, onOutcome: (outcome) => outcomes.push(outcome) },
    );
    const collections = watchForcedMinorCollections();
    try {
      let writtenAt = Number.POSITIVE_INFINITY;
      onNextRequestWritten(() => {
        writtenAt = performance.now();
        fillYoungGeneration();
      });
      const deltas: string[] = [];
      for await (const event of provider.stream(request())) if (event.type === "text_delta") deltas.push(event.text);
      expect(deltas.join("")).toBe("at once");
      // The grace still ends (and says what it decided) after the answer: nothing is collected then either.
      await until(() => outcomes.length > 0);
      expect(outcomes).toEqual(["answered first"]);
      expect(collections.seen.filter((at) => at >= writtenAt)).toEqual([]);
    } finally {
      collections.stop();
    }
  });

  it("leaves V8's flags (the code cache's tag) and the global scope as they were", async () => {
    const tag = cachedDataVersionTag();
    const globalGc = (globalThis as { gc?: unknown }).gc;
    server.enqueue(reply().delayHeaders(SLOW_ANSWER_MS).text("answer"));
    const provider = collectYoungGenerationWhileWaiting(
      createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
    );
    const collections = watchForcedMinorCollections();
    try {
      onNextRequestWritten(fillYoungGeneration);
      for await (const _ of provider.stream(request()));
      await until(() => collections.seen.length > 0);
      expect(collections.seen.length).toBeGreaterThan(0);
    } finally {
      collections.stop();
    }
    expect(cachedDataVersionTag()).toBe(tag);
    expect((globalThis as { gc?: unknown }).gc).toBe(globalGc);
  });
});

describe("when the young generation wants collecting", () => {
  it("is when less than half of it is free: too little room left for a turn of tool calls", () => {
    expect(youngGenerationWantsCollecting(3_400_000, 600_000)).toBe(true);
    expect(youngGenerationWantsCollecting(2_100_000, 1_900_000)).toBe(true);
  });

  it("is not when V8 has just collected it (only the survivors are left)", () => {
    expect(youngGenerationWantsCollecting(900_000, 3_100_000)).toBe(false);
    expect(youngGenerationWantsCollecting(0, 4_000_000)).toBe(false);
  });
});
