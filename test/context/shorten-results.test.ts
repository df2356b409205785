// The summary request's fitting step: the longest tool results lose their middle before any turn
// is dropped, so the summary still sees the start of the work.
import { describe, expect, it } from "vitest";
import { MIN_KEPT_RESULT_CHARS, shortenLongResults } from "../../src/context/compact/shorten-results.js";
import { fitFromTheFront } from "../../src/context/compact/summarize.js";
import { estimateMessageTokens } from "../../src/context/token-estimate.js";
import type { Message } from "../../src/messages/types.js";

const exchange = (id: string, result: string): Message[] => [
  { role: "assistant", content: [{ type: "tool_use", id, name: "Read", input: { file_path: `/${id}` } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result }] },
];
const tokens = (messages: readonly Message[]) => messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
const resultOf = (messages: readonly Message[], index: number) =>
  (messages[index] as { content: Array<{ content: string }> }).content[0]?.content ?? "";

describe("shortening tool results to fit the summary request", () => {
  const conversation: Message[] = [
    { role: "user", content: [{ type: "text", text: "fix the test" }] },
    ...exchange("run", "not ok 1 - sum adds\n  expected 5, got -1"),
    ...exchange("a", `HEAD-A\n${"a".repeat(24_000)}\nTAIL-A`),
    ...exchange("b", `HEAD-B\n${"b".repeat(24_000)}\nTAIL-B`),
  ];

  it("keeps every turn, cutting the longest results' middles to one length that fits", () => {
    const fitted = shortenLongResults(conversation, 6_000);
    expect(tokens(fitted)).toBeLessThanOrEqual(6_000);
    expect(fitted).toHaveLength(conversation.length);
    expect(resultOf(fitted, 2)).toBe("not ok 1 - sum adds\n  expected 5, got -1");
    for (const [index, mark] of [
      [4, "A"],
      [6, "B"],
    ] as const) {
      const text = resultOf(fitted, index);
      expect(text.startsWith(`HEAD-${mark}`)).toBe(true);
      expect(text.endsWith(`TAIL-${mark}`)).toBe(true);
      expect(text).toMatch(/characters of this result left out for the summary/);
    }
    // The summary then has the whole task: nothing is cut from the front.
    expect(fitFromTheFront(fitted, 6_000)).toHaveLength(conversation.length);
  });

  it("leaves a conversation that fits as it is, and never cuts a result below its floor", () => {
    expect(shortenLongResults(conversation, 100_000)).toEqual(conversation);
    const floor = shortenLongResults(conversation, 10);
    expect(resultOf(floor, 4).length).toBeGreaterThanOrEqual(MIN_KEPT_RESULT_CHARS);
  });
});
