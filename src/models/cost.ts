// What a session has spent: tokens per model and their cost in USD, as Claude Code reports them in
// its result line (`total_cost_usd`, `modelUsage`). A model without a known price makes the cost
// unknown (null) rather than zero: a total that silently left a model out would understate it.
import type { Usage } from "../messages/types.js";
import type { ModelPrice } from "./catalog.js";
import type { ModelInfo } from "./resolve.js";

/** One model's share of a session, in the Agent SDK's `ModelUsage` shape. */
export interface ModelUsageEntry {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  /** Null when the model's price is unknown. */
  costUSD: number | null;
  contextWindow: number;
  maxOutputTokens: number;
}

/** The cost of one response's usage at `price` (USD per million tokens of each kind). */
export function costOfUsage(price: ModelPrice, usage: Usage): number {
  return (
    (usage.input_tokens * price.input +
      usage.output_tokens * price.output +
      (usage.cache_creation_input_tokens ?? 0) * price.cacheWrite +
      (usage.cache_read_input_tokens ?? 0) * price.cacheRead) /
    1_000_000
  );
}

/**
 * USD per server-side web search (Anthropic bills $10 per 1,000 searches on top of tokens). Only
 * requests whose usage counts searches pay it.
 */
export const WEB_SEARCH_USD_PER_REQUEST = 0.01;

/** Tokens and cost of every model request of a session (the loop's, compaction's), by model. */
export class UsageLedger {
  private readonly byModel = new Map<string, ModelUsageEntry>();

  /** Adds one response's usage, priced with what is known of its model. */
  add(info: ModelInfo, usage: Usage | undefined): void {
    if (!usage) return;
    let entry = this.byModel.get(info.model);
    if (!entry) {
      entry = {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: info.price ? 0 : null,
        contextWindow: info.contextWindow,
        maxOutputTokens: info.maxOutputTokens,
      };
      this.byModel.set(info.model, entry);
    }
    entry.inputTokens += usage.input_tokens;
    entry.outputTokens += usage.output_tokens;
    entry.cacheReadInputTokens += usage.cache_read_input_tokens ?? 0;
    entry.cacheCreationInputTokens += usage.cache_creation_input_tokens ?? 0;
    const searches = usage.server_tool_use?.web_search_requests ?? 0;
    entry.webSearchRequests += searches;
    if (entry.costUSD !== null && info.price)
      entry.costUSD += costOfUsage(info.price, usage) + searches * WEB_SEARCH_USD_PER_REQUEST;
    else entry.costUSD = null;
  }

  /** USD spent so far; null as soon as one model's price is unknown; 0 before any request. */
  get totalCostUSD(): number | null {
    let total = 0;
    for (const entry of this.byModel.values()) {
      if (entry.costUSD === null) return null;
      total += entry.costUSD;
    }
    return total;
  }

  /** A copy, keyed by model id, as the result line carries it. */
  modelUsage(): Record<string, ModelUsageEntry> {
    const out: Record<string, ModelUsageEntry> = {};
    for (const [model, entry] of this.byModel) out[model] = { ...entry };
    return out;
  }
}
