// withRetry around the real adapters, against the scripted server's fault injection.
import { describe, expect, it, vi } from "vitest";
import { type RetryInfo, withRetry } from "../../src/providers/retry.js";
import { ProviderError } from "../../src/providers/types.js";
import { hang, httpError, reply, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { ADAPTERS, drain, finalBlocks, requestOf, textDeltas } from "./support.js";

// Tiny delays keep the suite fast; the policy is the same at any scale.
const FAST = { baseDelayMs: 1, maxDelayMs: 5 };

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `body` on a faked clock (the idle watchdog's timers and performance.now, and the scripted
 * server's pauses) that runs ahead by `stepMs` at each turn of the real event loop: an idle time
 * passes in a few milliseconds, while the real network still delivers between steps, so a stream
 * that is only slow is never taken for a stalled one.
 */
async function onFastClock<T>(body: () => Promise<T>, stepMs = 10): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  let running = true;
  const ticker = (async () => {
    while (running) {
      await nextTurn();
      await vi.advanceTimersByTimeAsync(stepMs);
    }
  })();
  try {
    return await body();
  } finally {
    running = false;
    await ticker;
    vi.useRealTimers();
  }
}

/** The consumer holding an event for `ms` of the (fast) clock. */
async function holdFor(ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) await nextTurn();
}

describe.each(ADAPTERS)("withRetry over the $protocol adapter", ({ protocol, make }) => {
  const server = scriptedModelServerFixture();

  it("retries a 429 and then succeeds", async () => {
    server.enqueue(httpError(429, { message: "rate limited" }), reply().text("after the limit"));
    const { events, error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toBeUndefined();
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "after the limit" }]);
    expect(server.requests).toHaveLength(2);
    // Nothing had been yielded before the failure, so there is nothing to reset.
    expect(events.some((e) => e.type === "reset")).toBe(false);
  });

  it("retries a 529 twice and then succeeds", async () => {
    server.enqueue(
      httpError(529, { message: "Overloaded" }),
      httpError(529, { message: "Overloaded" }),
      reply().text("finally"),
    );
    const { events, error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toBeUndefined();
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "finally" }]);
    expect(server.requests).toHaveLength(3);
  });

  it("retries each of 500-504", async () => {
    for (const status of [500, 501, 502, 503, 504]) server.enqueue(httpError(status));
    server.enqueue(reply().text("survived"));
    const { events, error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toBeUndefined();
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "survived" }]);
    expect(server.requests).toHaveLength(6);
  });

  it("after a stream cut mid-turn, yields reset and then the whole retried turn", async () => {
    server.enqueue(
      reply().text("first attempt text", { chunks: 4 }).cutAfter(4),
      reply().text("second attempt", { chunks: 2 }),
    );
    const { events, error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toBeUndefined();
    const resetAt = events.findIndex((e) => e.type === "reset");
    expect(resetAt).toBeGreaterThan(0);
    expect(textDeltas(events.slice(0, resetAt)).length).toBeGreaterThan(0);
    expect(textDeltas(events.slice(resetAt + 1))).toBe("second attempt");
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "second attempt" }]);
    expect(events.filter((e) => e.type === "reset")).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: "stop", stopReason: "end_turn" });
    expect(server.requests).toHaveLength(2);
  });

  it("retries an error event inside a 200 stream (overloaded) behind a reset", async () => {
    server.enqueue(
      reply()
        .text("partial")
        .streamError(protocol === "anthropic" ? "overloaded_error" : "server_error", "Overloaded"),
      reply().text("recovered"),
    );
    const { events, error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toBeUndefined();
    expect(events.some((e) => e.type === "reset")).toBe(true);
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "recovered" }]);
  });

  it("does not retry a 400, and says what the server said", async () => {
    server.enqueue(
      httpError(400, { message: "tools.0.name: invalid characters" }),
      reply().text("must not be reached"),
    );
    const { error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 400, retryable: false, kind: "http" });
    expect((error as Error).message).toContain("tools.0.name: invalid characters");
    expect(server.requests).toHaveLength(1);
    expect(server.pendingSteps()).toBe(1);
  });

  it.each([401, 403, 404])("does not retry a %i, even when the server says to", async (status) => {
    server.enqueue(httpError(status, { headers: { "x-should-retry": "true" } }), reply().text("must not be reached"));
    const { error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toMatchObject({ status, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a 503 the server marks x-should-retry: false", async () => {
    server.enqueue(httpError(503, { headers: { "x-should-retry": "false" } }), reply().text("must not be reached"));
    const { error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toMatchObject({ status: 503, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it("turns a prompt-too-long 400 into kind prompt_too_long, not retried", async () => {
    const message =
      protocol === "anthropic"
        ? "prompt is too long: 210000 tokens > 200000 maximum"
        : "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.";
    server.enqueue(httpError(400, { message }), reply().text("must not be reached"));
    const { error } = await drain(withRetry(make(server), FAST).stream(requestOf()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "prompt_too_long", status: 400, retryable: false });
    expect((error as Error).message).toContain(message);
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after the last retry with the status and what was tried", async () => {
    server.enqueue(httpError(503), httpError(529), httpError(503));
    const { error } = await drain(withRetry(make(server), { ...FAST, maxRetries: 2 }).stream(requestOf()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 503, retryable: false });
    const message = (error as Error).message;
    expect(message).toContain("503");
    expect(message).toMatch(/gave up after 3 tries/);
    expect(message).toContain("HTTP 503, HTTP 529, HTTP 503");
    expect(server.requests).toHaveLength(3);
  });

  it("honours retry-after-ms from the server instead of its own backoff", async () => {
    server.enqueue(httpError(429, { retryAfterMs: 150 }), reply().text("ok"));
    const retries: RetryInfo[] = [];
    const { error } = await drain(
      withRetry(make(server), { ...FAST, onRetry: (info) => retries.push(info) }).stream(requestOf()),
    );
    expect(error).toBeUndefined();
    expect(retries.map((r) => r.delayMs)).toEqual([150]);
    const [first, second] = server.requests;
    // A lower bound only: the client waited at least as long as it was told to.
    expect(second!.monotonicMs - first!.monotonicMs).toBeGreaterThanOrEqual(140);
  });

  it("honours retry-after in seconds", async () => {
    server.enqueue(httpError(529, { retryAfter: 0 }), reply().text("ok"));
    const retries: RetryInfo[] = [];
    await drain(
      withRetry(make(server), {
        baseDelayMs: 10_000,
        maxDelayMs: 10_000,
        onRetry: (info) => retries.push(info),
      }).stream(requestOf()),
    );
    // Without the header the first wait would have been at least 10 s.
    expect(retries.map((r) => r.delayMs)).toEqual([0]);
    expect(server.requests).toHaveLength(2);
  });

  it("stops at once when aborted during the backoff sleep", async () => {
    server.enqueue(httpError(529, { retryAfterMs: 60_000 }), reply().text("must not be reached"));
    const controller = new AbortController();
    const pending = drain(
      withRetry(make(server), { maxRetryAfterMs: 60_000 }).stream(requestOf({ signal: controller.signal })),
    );
    await server.waitForRequests(1);
    controller.abort();
    const { error } = await pending;
    expect(error).toMatchObject({ kind: "aborted" });
    expect(server.requests).toHaveLength(1);
  });

  it("sends nothing for a request that is already aborted", async () => {
    server.enqueue(reply().text("must not be reached"));
    const controller = new AbortController();
    controller.abort();
    const { error } = await drain(withRetry(make(server), FAST).stream(requestOf({ signal: controller.signal })));
    expect(error).toMatchObject({ kind: "aborted" });
    expect(server.requests).toHaveLength(0);
  });

  it("stops at once when aborted mid-stream, without a retry", async () => {
    server.enqueue(
      reply().text("streaming then stuck", { chunks: 4 }).hangAfter(4),
      reply().text("must not be reached"),
    );
    const controller = new AbortController();
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of withRetry(make(server), FAST).stream(requestOf({ signal: controller.signal }))) {
        seen.push(event.type);
        if (event.type === "text_delta") controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual(["text_delta"]);
    expect(caught).toMatchObject({ kind: "aborted" });
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry an abort while the request hangs", async () => {
    server.enqueue(hang(), reply().text("must not be reached"));
    const controller = new AbortController();
    const pending = drain(withRetry(make(server), FAST).stream(requestOf({ signal: controller.signal })));
    await server.waitForRequests(1);
    controller.abort();
    const { error } = await pending;
    expect(error).toMatchObject({ kind: "aborted" });
    expect(server.requests).toHaveLength(1);
    expect(server.pendingSteps()).toBe(1);
  });

  it("cuts a stream that stalls mid-turn with the idle watchdog, resets and retries", async () => {
    server.enqueue(reply().text("stalls after this", { chunks: 3 }).hangAfter(4), reply().text("fresh turn"));
    const retries: RetryInfo[] = [];
    const provider = withRetry(make(server), { ...FAST, idleTimeoutMs: 300, onRetry: (r) => retries.push(r) });
    const { events, error } = await onFastClock(() => drain(provider.stream(requestOf())));
    expect(error).toBeUndefined();
    expect(events.some((e) => e.type === "reset")).toBe(true);
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "fresh turn" }]);
    expect(retries[0]?.error).toMatchObject({ kind: "stream_cut" });
    expect(retries[0]?.error.message).toMatch(/no data from the model/);
  });

  it("retries a request whose response never starts, once the idle watchdog fires", async () => {
    server.enqueue(hang(), reply().text("answered"));
    const provider = withRetry(make(server), { ...FAST, idleTimeoutMs: 300 });
    const { events, error } = await onFastClock(() => drain(provider.stream(requestOf())));
    expect(error).toBeUndefined();
    expect(events.some((e) => e.type === "reset")).toBe(false);
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "answered" }]);
    expect(server.requests).toHaveLength(2);
  });

  it("does not count the consumer's own time against the idle watchdog", async () => {
    server.enqueue(reply().text("slow consumer", { chunks: 2 }).burst());
    const provider = withRetry(make(server), { ...FAST, idleTimeoutMs: 1000 });
    const seen: string[] = [];
    // The watchdog's clock is faked; the consumer holds each delta for 1.3 s of it, past the idle
    // time, while the real network goes on as it would.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      for await (const event of provider.stream(requestOf())) {
        seen.push(event.type);
        if (event.type === "text_delta") await vi.advanceTimersByTimeAsync(1300);
      }
    } finally {
      vi.useRealTimers();
    }
    expect(seen).not.toContain("reset");
    expect(seen.at(-1)).toBe("stop");
    expect(server.requests).toHaveLength(1);
  });

  it("gives every wait its own idle time, however long the stream has run", async () => {
    // Six events 150 ms apart: 900 ms in all, each wait well inside the 600 ms watchdog.
    server.enqueue(reply().text("steady stream", { chunks: 6 }).delay(150));
    const provider = withRetry(make(server), { ...FAST, idleTimeoutMs: 600 });
    const { events, error } = await onFastClock(() => drain(provider.stream(requestOf())));
    expect(error).toBeUndefined();
    expect(events.some((e) => e.type === "reset")).toBe(false);
    expect(finalBlocks(events)).toEqual([{ type: "text", text: "steady stream" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("still cuts a stall that follows an event the consumer held past the idle time", async () => {
    server.enqueue(reply().text("held then stalls", { chunks: 3 }).hangAfter(4), reply().text("fresh turn"));
    const provider = withRetry(make(server), { ...FAST, idleTimeoutMs: 300 });
    const seen: string[] = [];
    let held = false;
    await onFastClock(async () => {
      for await (const event of provider.stream(requestOf())) {
        seen.push(event.type);
        if (event.type === "text_delta" && !held) {
          held = true;
          await holdFor(500);
        }
      }
    });
    expect(seen).toContain("reset");
    expect(seen.at(-1)).toBe("stop");
    expect(server.requests).toHaveLength(2);
  });

  it("retries when the server cannot be reached, then reports a network error", async () => {
    // The address of a server that has just closed: nothing listens there any more.
    const gone = await startScriptedModelServer();
    const url = gone.url;
    await gone.close();
    const provider =
      protocol === "anthropic"
        ? (await import("../../src/providers/anthropic.js")).createAnthropicProvider({ apiKey: "k", baseURL: url })
        : (await import("../../src/providers/openai.js")).createOpenAIProvider({ apiKey: "k", baseURL: `${url}/v1` });
    const retries: RetryInfo[] = [];
    // Refused by this machine: nothing listens, as when a local model server is not started. Two
    // retries, not the eight asked for, and the message says what is wrong.
    const { error } = await drain(
      withRetry(provider, { ...FAST, maxRetries: 8, onRetry: (r) => retries.push(r) }).stream(requestOf()),
    );
    expect(retries.map((r) => r.maxRetries)).toEqual([2, 2]);
    expect(error).toMatchObject({
      kind: "network",
      refusedLocally: { address: "127.0.0.1", port: Number(new URL(url).port) },
    });
    expect((error as Error).message).toContain(`nothing is listening at 127.0.0.1:${new URL(url).port}`);
    expect((error as Error).message).toMatch(/gave up after 3 tries/);
  });
});

describe("withRetry settings", () => {
  it("reads WARDEN_MAX_RETRIES and refuses a value that is not a whole number", async () => {
    const server = await startScriptedModelServer();
    const saved = process.env.WARDEN_MAX_RETRIES;
    try {
      process.env.WARDEN_MAX_RETRIES = "1";
      server.enqueue(httpError(500), httpError(500), reply().text("not reached with one retry"));
      const provider = ADAPTERS[0]!.make(server);
      const { error } = await drain(withRetry(provider, FAST).stream(requestOf()));
      expect(error).toMatchObject({ status: 500 });
      expect(server.requests).toHaveLength(2);

      process.env.WARDEN_MAX_RETRIES = "many";
      expect(() => withRetry(provider)).toThrow(/WARDEN_MAX_RETRIES must be a whole number/);
    } finally {
      if (saved === undefined) delete process.env.WARDEN_MAX_RETRIES;
      else process.env.WARDEN_MAX_RETRIES = saved;
      await server.close();
    }
  });

  it("refuses negative or fractional options", () => {
    const provider = { name: "none", stream: () => (async function* () {})() };
    expect(() => withRetry(provider, { maxRetries: -1 })).toThrow(/maxRetries must be a whole number/);
    expect(() => withRetry(provider, { baseDelayMs: 0.5 })).toThrow(/baseDelayMs/);
  });
});
