// The pure parts of the retry policy: how a server's wait is read, how context overflow is
// recognised in each API's words, and how the backoff grows.
import { describe, expect, it } from "vitest";
import { isPromptTooLongMessage, retryAfterMsFrom } from "../../src/providers/errors.js";
import { backoffDelayMs } from "../../src/providers/retry.js";

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe("retryAfterMsFrom", () => {
  it("prefers retry-after-ms, then reads retry-after as seconds or as an HTTP date", () => {
    expect(retryAfterMsFrom(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterMsFrom(headers({ "retry-after": "2" }))).toBe(2000);
    const now = Date.parse("2026-11-29T12:00:00Z");
    expect(retryAfterMsFrom(headers({ "retry-after": "Sun, 29 Nov 2026 12:00:05 GMT" }), now)).toBe(5000);
  });

  it("ignores what it cannot read and never returns a negative wait", () => {
    expect(retryAfterMsFrom(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMsFrom(headers({}))).toBeUndefined();
    expect(retryAfterMsFrom(undefined)).toBeUndefined();
    expect(retryAfterMsFrom(headers({ "retry-after": "-3" }))).toBe(0);
  });
});

describe("isPromptTooLongMessage", () => {
  it.each([
    "prompt is too long: 210000 tokens > 200000 maximum",
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
    "context_length_exceeded",
    "the request exceeds the available context size, try increasing it",
    "Input is too long: too many tokens",
  ])("recognises %s", (message) => {
    expect(isPromptTooLongMessage(message)).toBe(true);
  });

  it.each(["tools.0.name: invalid characters", "max_tokens: must be positive", "Overloaded"])(
    "does not mistake %s",
    (message) => {
      expect(isPromptTooLongMessage(message)).toBe(false);
    },
  );
});

describe("backoffDelayMs", () => {
  it("doubles from the base, adds at most 25% jitter, and stops growing at the cap", () => {
    for (let trial = 0; trial < 50; trial++) {
      const first = backoffDelayMs(1, 500, 32_000);
      const third = backoffDelayMs(3, 500, 32_000);
      const tenth = backoffDelayMs(10, 500, 32_000);
      expect(first).toBeGreaterThanOrEqual(500);
      expect(first).toBeLessThanOrEqual(625);
      expect(third).toBeGreaterThanOrEqual(2000);
      expect(third).toBeLessThanOrEqual(2500);
      expect(tenth).toBeGreaterThanOrEqual(32_000);
      expect(tenth).toBeLessThanOrEqual(40_000);
    }
  });
});
