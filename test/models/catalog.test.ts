import { describe, expect, it } from "vitest";
import { createSession } from "../../src/loop/session.js";
import { costOfUsage, UsageLedger } from "../../src/models/cost.js";
import { applyOverride, modelInfoFor, normalizeModelId } from "../../src/models/resolve.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { allowAll, recording, tempDir, text, writeScript } from "../loop/helpers.js";

describe("model table", () => {
  it("finds Claude models by id, dated or not, with their window, output limit and price", () => {
    const sonnet = modelInfoFor("anthropic", "claude-sonnet-4-5-20250929");
    expect(sonnet).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 64_000, source: "catalog" });
    expect(sonnet.price).toEqual({ input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 });
    expect(modelInfoFor("anthropic", "claude-opus-4-1").price?.input).toBe(15);
    expect(modelInfoFor("anthropic", "claude-opus-4-20250514").maxOutputTokens).toBe(32_000);
    expect(modelInfoFor("anthropic", "claude-opus-4-5").price?.input).toBe(5);
    expect(modelInfoFor("anthropic", "claude-3-5-haiku-latest")).toMatchObject({ maxOutputTokens: 8_192 });
    expect(modelInfoFor("anthropic", "claude-haiku-4-5").price?.output).toBe(5);
  });

  it("finds OpenAI models without confusing a family with its smaller members", () => {
    expect(modelInfoFor("openai", "gpt-4.1")).toMatchObject({ contextWindow: 1_047_576, price: { input: 2 } });
    expect(modelInfoFor("openai", "gpt-4.1-mini").price?.input).toBe(0.4);
    expect(modelInfoFor("openai", "gpt-4o-2024-08-06")).toMatchObject({
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
    });
    expect(modelInfoFor("openai", "gpt-4o-mini").price?.input).toBe(0.15);
    expect(modelInfoFor("openai", "gpt-5")).toMatchObject({ maxInputTokens: 272_000, price: { input: 1.25 } });
    expect(modelInfoFor("openai", "o3").maxOutputTokens).toBe(100_000);
  });

  it("reads OpenRouter's vendor-prefixed ids with dots", () => {
    expect(normalizeModelId("anthropic/claude-sonnet-4.5")).toBe("claude-sonnet-4-5");
    expect(normalizeModelId("openai/gpt-4.1")).toBe("gpt-4.1");
    expect(modelInfoFor("openrouter", "anthropic/claude-sonnet-4.5").price?.input).toBe(3);
    expect(modelInfoFor("openrouter", "openai/gpt-4.1-nano").price?.input).toBe(0.1);
  });

  it("gives an unknown model its provider's default and no price", () => {
    const unknown = modelInfoFor("anthropic", "claude-test");
    expect(unknown).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 32_000, source: "provider-default" });
    expect(unknown.price).toBeUndefined();
    expect(modelInfoFor("openai", "gpt-test").price).toBeUndefined();
    expect(modelInfoFor("deepseek", "deepseek-chat")).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 8_192 });
    expect(modelInfoFor("deepseek", "deepseek-chat").price).toBeUndefined();
    expect(modelInfoFor("replay", "/tmp/script.jsonl").price).toBeUndefined();
    // A local server: small window assumed, and it costs nothing per token.
    const local = modelInfoFor("ollama", "llama3.1:8b");
    expect(local).toMatchObject({ contextWindow: 32_768, maxOutputTokens: 8_192, price: { input: 0, output: 0 } });
  });

  it("lets settings override any figure and keeps the rest", () => {
    const info = applyOverride(modelInfoFor("ollama", "qwen3"), { contextWindow: 65_536 });
    expect(info).toMatchObject({ contextWindow: 65_536, maxOutputTokens: 8_192, source: "settings" });
    const priced = applyOverride(modelInfoFor("deepseek", "deepseek-chat"), {
      price: { input: 0.28, output: 0.42, cacheWrite: 0.28, cacheRead: 0.028 },
    });
    expect(priced.price?.output).toBe(0.42);
  });
});

describe("cost", () => {
  it("prices each kind of token at its own rate", () => {
    const price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
    const usage = {
      input_tokens: 1_000,
      output_tokens: 500,
      cache_creation_input_tokens: 2_000,
      cache_read_input_tokens: 10_000,
    };
    expect(costOfUsage(price, usage)).toBeCloseTo((1_000 * 3 + 500 * 15 + 2_000 * 3.75 + 10_000 * 0.3) / 1e6, 12);
  });

  it("adds up usage per model, and an unknown price makes the total unknown, not zero", () => {
    const ledger = new UsageLedger();
    expect(ledger.totalCostUSD).toBe(0);
    const sonnet = modelInfoFor("anthropic", "claude-sonnet-4-5");
    ledger.add(sonnet, { input_tokens: 1_000_000, output_tokens: 0 });
    ledger.add(sonnet, { input_tokens: 0, output_tokens: 100_000 });
    expect(ledger.totalCostUSD).toBeCloseTo(3 + 1.5, 10);
    expect(ledger.modelUsage()["claude-sonnet-4-5"]).toMatchObject({
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      webSearchRequests: 0,
    });
    ledger.add(modelInfoFor("openai", "gpt-test"), { input_tokens: 10, output_tokens: 1 });
    expect(ledger.modelUsage()["gpt-test"]?.costUSD).toBeNull();
    expect(ledger.totalCostUSD).toBeNull();
  });
});

describe("the request's output limit", () => {
  it("never asks a model for more than it may write", async () => {
    const cwd = tempDir();
    const script = writeScript(cwd, [{ content: [text("ok")] }, { content: [text("ok")] }]);
    const replay = createReplayProvider(script, { cwd });
    for (const [model, expected] of [
      ["claude-3-5-haiku-20241022", 8_192],
      ["claude-sonnet-4-5", 32_000],
    ] as const) {
      // The replay script answers; the provider's name says whose model table applies.
      const { provider, requests } = recording({ name: "anthropic", stream: (r) => replay.stream(r) });
      const session = createSession({ provider, model, tools: [], canUseTool: allowAll, cwd, transcript: false });
      for await (const _ of session.submitMessage("hi"));
      expect(requests[0]?.maxTokens).toBe(expected);
    }
  });
});
