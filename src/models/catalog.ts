// What we know of each model the supported providers serve: how much it reads (its context
// window), how much it may write in one response, and what a million tokens of each kind cost.
// Figures are the vendors' published ones (USD per million tokens; cache writes at the 5-minute
// rate). Rows are matched in order against the model id, so specific ids come before families.
// A model no row matches gets its provider's default (./resolve.ts) and no price: its cost is
// reported as unknown, never as zero. Settings (`models`) override any row.

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Writing the prompt cache (Anthropic's 5-minute rate); OpenAI bills cache writes as plain input. */
  cacheWrite: number;
  cacheRead: number;
}

export interface ModelLimits {
  /** Tokens the model reads and writes in one request, prompt and response together. */
  contextWindow: number;
  /** The most the model may write in one response (the request's max_tokens is capped by it). */
  maxOutputTokens: number;
  /** Set when the prompt alone may not fill the window less the output (gpt-5: 272k of 400k). */
  maxInputTokens?: number;
}

export interface CatalogRow extends ModelLimits {
  /** Matched against the normalised model id (./resolve.ts normalizeModelId). */
  match: RegExp;
  price?: ModelPrice;
}

const perMillion = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});

const OPUS_4 = perMillion(15, 75, 18.75, 1.5);
const OPUS_4_5 = perMillion(5, 25, 6.25, 0.5);
const SONNET = perMillion(3, 15, 3.75, 0.3);
const HAIKU_4_5 = perMillion(1, 5, 1.25, 0.1);

/** Claude: every model reads 200,000 tokens; ids may carry a date (`-20250929`) or `-latest`. */
export const ANTHROPIC_MODELS: readonly CatalogRow[] = [
  { match: /^claude-opus-4-(?:0|1)(?:-|$)|^claude-opus-4-\d{8}$/, ...limits(200_000, 32_000), price: OPUS_4 },
  // Opus 4.5 and the 4.x releases after it share one price (the price cut came with 4.5).
  { match: /^claude-opus-4-[5-9](?:-|$)/, ...limits(200_000, 64_000), price: OPUS_4_5 },
  { match: /^claude-sonnet-4(?:-|$)/, ...limits(200_000, 64_000), price: SONNET },
  { match: /^claude-haiku-4(?:-|$)/, ...limits(200_000, 64_000), price: HAIKU_4_5 },
  { match: /^claude-3-7-sonnet(?:-|$)/, ...limits(200_000, 64_000), price: SONNET },
  { match: /^claude-3-5-sonnet(?:-|$)/, ...limits(200_000, 8_192), price: SONNET },
  { match: /^claude-3-5-haiku(?:-|$)/, ...limits(200_000, 8_192), price: perMillion(0.8, 4, 1, 0.08) },
  { match: /^claude-3-opus(?:-|$)/, ...limits(200_000, 4_096), price: OPUS_4 },
  { match: /^claude-3-haiku(?:-|$)/, ...limits(200_000, 4_096), price: perMillion(0.25, 1.25, 0.3, 0.03) },
];

/** OpenAI: cached input is read at a discount; there is no separate cache-write price. */
export const OPENAI_MODELS: readonly CatalogRow[] = [
  { match: /^gpt-5-nano(?:-|$)/, ...limits(400_000, 128_000, 272_000), price: perMillion(0.05, 0.4, 0.05, 0.005) },
  { match: /^gpt-5-mini(?:-|$)/, ...limits(400_000, 128_000, 272_000), price: perMillion(0.25, 2, 0.25, 0.025) },
  {
    match: /^gpt-5(?:-\d{4}-\d{2}-\d{2})?$/,
    ...limits(400_000, 128_000, 272_000),
    price: perMillion(1.25, 10, 1.25, 0.125),
  },
  { match: /^gpt-4\.1-nano(?:-|$)/, ...limits(1_047_576, 32_768), price: perMillion(0.1, 0.4, 0.1, 0.025) },
  { match: /^gpt-4\.1-mini(?:-|$)/, ...limits(1_047_576, 32_768), price: perMillion(0.4, 1.6, 0.4, 0.1) },
  { match: /^gpt-4\.1(?:-\d{4}-\d{2}-\d{2})?$/, ...limits(1_047_576, 32_768), price: perMillion(2, 8, 2, 0.5) },
  {
    match: /^gpt-4o-mini(?:-\d{4}-\d{2}-\d{2})?$/,
    ...limits(128_000, 16_384),
    price: perMillion(0.15, 0.6, 0.15, 0.075),
  },
  { match: /^gpt-4o(?:-\d{4}-\d{2}-\d{2})?$/, ...limits(128_000, 16_384), price: perMillion(2.5, 10, 2.5, 1.25) },
  { match: /^o4-mini(?:-\d{4}-\d{2}-\d{2})?$/, ...limits(200_000, 100_000), price: perMillion(1.1, 4.4, 1.1, 0.275) },
  { match: /^o3-mini(?:-\d{4}-\d{2}-\d{2})?$/, ...limits(200_000, 100_000), price: perMillion(1.1, 4.4, 1.1, 0.55) },
  { match: /^o3(?:-\d{4}-\d{2}-\d{2})?$/, ...limits(200_000, 100_000), price: perMillion(2, 8, 2, 0.5) },
  { match: /^o1(?:-\d{4}-\d{2}-\d{2})?$/, ...limits(200_000, 100_000), price: perMillion(15, 60, 15, 7.5) },
];

/**
 * DeepSeek's hosted models: windows and output limits only. Its prices change often and by time
 * of day, so none is assumed: add one in settings (`models`) to have a cost reported.
 */
export const DEEPSEEK_MODELS: readonly CatalogRow[] = [
  { match: /^deepseek-chat$/, ...limits(128_000, 8_192) },
  { match: /^deepseek-reasoner$/, ...limits(128_000, 65_536) },
];

function limits(contextWindow: number, maxOutputTokens: number, maxInputTokens?: number): ModelLimits {
  return maxInputTokens === undefined
    ? { contextWindow, maxOutputTokens }
    : { contextWindow, maxOutputTokens, maxInputTokens };
}
