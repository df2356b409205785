import { describe, expect, it } from "vitest";
import { estimateMessageTokens, estimateRequestTokens, usageTotalTokens } from "../../src/context/token-estimate.js";
import type { Message } from "../../src/messages/types.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

describe("token estimate", () => {
  it("starts from the newest reported usage and estimates only what came after it", () => {
    const answered: Message = {
      role: "assistant",
      content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/a" } }],
      usage: { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 9_000, cache_creation_input_tokens: 850 },
    };
    const result: Message = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t1", content: "x".repeat(4_000) }],
    };
    // Anything before the answered request is already inside its usage: an enormous first message
    // must not be counted again.
    const messages = [user("y".repeat(1_000_000)), answered, result];
    expect(usageTotalTokens(answered.usage!)).toBe(10_000);
    expect(estimateRequestTokens(messages, 5_000)).toBe(10_000 + estimateMessageTokens(result));
    expect(estimateMessageTokens(result)).toBeGreaterThanOrEqual(1_000);
    expect(estimateMessageTokens(result)).toBeLessThan(1_100);
  });

  it("estimates the prefix and every message when no response has reported usage yet", () => {
    const messages = [user("z".repeat(400))];
    expect(estimateRequestTokens(messages, 2_000)).toBe(2_000 + estimateMessageTokens(messages[0]!));
    // An assistant message without usage (a replay script gave none) is estimated like the rest.
    const noUsage: Message = { role: "assistant", content: [{ type: "text", text: "w".repeat(800) }] };
    expect(estimateRequestTokens([...messages, noUsage], 0)).toBeGreaterThanOrEqual(300);
  });

  it("counts an image as a fixed share, not by the length of its base64", () => {
    const image: Message = {
      role: "user",
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "A".repeat(3_000_000) } }],
    };
    expect(estimateMessageTokens(image)).toBeLessThan(2_000);
  });
});
