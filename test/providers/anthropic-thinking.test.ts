// The thinking setting as the Messages API takes it: a budget of at least 1,024 tokens and below
// max_tokens, adaptive and disabled as they are, and no temperature while the model thinks.
import { describe, expect, it } from "vitest";
import { toAnthropicParams } from "../../src/providers/anthropic-request.js";
import type { ModelRequest } from "../../src/providers/types.js";

const request = (extra: Partial<ModelRequest>): ModelRequest => ({
  model: "claude-sonnet-4-6",
  system: "",
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
  maxTokens: 8000,
  signal: new AbortController().signal,
  ...extra,
});

describe("Anthropic thinking", () => {
  it("sends the budget, raised to the API's minimum and cut below max_tokens", () => {
    const budget = (budgetTokens: number, maxTokens = 8000) =>
      toAnthropicParams(request({ thinking: { type: "enabled", budgetTokens }, maxTokens })).thinking;
    expect(budget(2048)).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(budget(100)).toEqual({ type: "enabled", budget_tokens: 1024 });
    expect(budget(50_000)).toEqual({ type: "enabled", budget_tokens: 7999 });
    // Too short an answer to think in: no thinking rather than a request the API refuses.
    expect(budget(2048, 1000)).toBeUndefined();
  });

  it("sends adaptive and disabled as they are, and leaves the temperature out while thinking", () => {
    const adaptive = toAnthropicParams(request({ thinking: { type: "adaptive", display: "omitted" }, temperature: 0 }));
    expect(adaptive.thinking).toEqual({ type: "adaptive", display: "omitted" });
    expect("temperature" in adaptive).toBe(false);
    const disabled = toAnthropicParams(request({ thinking: { type: "disabled" }, temperature: 0 }));
    expect(disabled.thinking).toEqual({ type: "disabled" });
    expect((disabled as { temperature?: number }).temperature).toBe(0);
    expect("thinking" in toAnthropicParams(request({}))).toBe(false);
  });
});
