// From a provider and a model id to what the loop needs to know of it: window, output limit and
// price. Catalog rows first (./catalog.ts), then the provider's default; settings override either.
import {
  ANTHROPIC_MODELS,
  type CatalogRow,
  DEEPSEEK_MODELS,
  type ModelLimits,
  type ModelPrice,
  OPENAI_MODELS,
} from "./catalog.js";

export interface ModelInfo extends ModelLimits {
  /** The model id as the provider receives it (the key of `modelUsage` in the result line). */
  model: string;
  /** Undefined when no price is known: cost is then reported as unknown, never as zero. */
  price?: ModelPrice;
  /** Where the figures come from, so a user can tell a guess from a published figure. */
  source: "catalog" | "provider-default" | "settings";
}

/** What settings (`models`) or a library caller may say about a model; any field may be left out. */
export interface ModelOverride {
  contextWindow?: number;
  maxOutputTokens?: number;
  maxInputTokens?: number;
  price?: ModelPrice;
}

interface ProviderDefaults {
  limits: ModelLimits;
  /** Local servers cost nothing per token; hosted ones have no default price. */
  price?: ModelPrice;
  tables: readonly (readonly CatalogRow[])[];
}

const FREE: ModelPrice = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };

// Local servers run whatever context their operator configured, often far below the model's own
// maximum (Ollama's default is a few thousand tokens): assume little and let settings say more.
const LOCAL_SERVER: ProviderDefaults = {
  limits: { contextWindow: 32_768, maxOutputTokens: 8_192 },
  price: FREE,
  tables: [],
};

const PROVIDER_DEFAULTS: Record<string, ProviderDefaults> = {
  // Every Claude model so far reads 200,000 tokens.
  anthropic: { limits: { contextWindow: 200_000, maxOutputTokens: 32_000 }, tables: [ANTHROPIC_MODELS] },
  // OpenAI's chat models of the last years read at least 128,000 and write at least 16,384.
  openai: { limits: { contextWindow: 128_000, maxOutputTokens: 16_384 }, tables: [OPENAI_MODELS] },
  openrouter: {
    limits: { contextWindow: 128_000, maxOutputTokens: 16_384 },
    tables: [ANTHROPIC_MODELS, OPENAI_MODELS],
  },
  deepseek: { limits: { contextWindow: 128_000, maxOutputTokens: 8_192 }, tables: [DEEPSEEK_MODELS] },
  ollama: LOCAL_SERVER,
  llamacpp: LOCAL_SERVER,
  lmstudio: LOCAL_SERVER,
  vllm: LOCAL_SERVER,
};

/** Any other provider (replay scripts, a library's own): today's request size, no price. */
export const GENERIC_DEFAULT_LIMITS: ModelLimits = { contextWindow: 128_000, maxOutputTokens: 32_000 };

/**
 * The id as the catalog spells it: lower case, without an OpenRouter vendor prefix
 * (`anthropic/claude-sonnet-4.5` → `claude-sonnet-4-5`; Claude ids use dashes where OpenRouter
 * writes dots, OpenAI's own dots stay).
 */
export function normalizeModelId(model: string): string {
  let id = model.trim().toLowerCase();
  const slash = id.lastIndexOf("/");
  if (slash >= 0) id = id.slice(slash + 1);
  if (id.startsWith("claude")) id = id.replace(/(\d)\.(\d)/g, "$1-$2");
  return id;
}

function catalogRow(tables: readonly (readonly CatalogRow[])[], id: string): CatalogRow | undefined {
  for (const table of tables) for (const row of table) if (row.match.test(id)) return row;
  return undefined;
}

/**
 * What the table knows of `model` served by `providerName` (the Provider's `name`: anthropic,
 * openai, ollama, ...), or that provider's default. Settings apply on top (applyOverride).
 */
export function modelInfoFor(providerName: string, model: string): ModelInfo {
  const defaults = PROVIDER_DEFAULTS[providerName];
  // Claude Code's `[1m]` suffix: the model's own row, with the 1M-token window the request asks for.
  const longContext = /\[1m\]$/i.test(model.trim());
  const id = normalizeModelId(model).replace(/\[1m\]$/, "");
  const row = catalogRow(defaults?.tables ?? [ANTHROPIC_MODELS, OPENAI_MODELS], id);
  const info: ModelInfo = row
    ? { model, ...limitsOf(row), source: "catalog" }
    : { model, ...(defaults?.limits ?? GENERIC_DEFAULT_LIMITS), source: "provider-default" };
  if (longContext) info.contextWindow = 1_000_000;
  const price = row ? row.price : defaults?.price;
  if (price) info.price = price;
  return info;
}

function limitsOf(row: CatalogRow): ModelLimits {
  const { contextWindow, maxOutputTokens, maxInputTokens } = row;
  return maxInputTokens === undefined
    ? { contextWindow, maxOutputTokens }
    : { contextWindow, maxOutputTokens, maxInputTokens };
}

export function applyOverride(info: ModelInfo, override: ModelOverride): ModelInfo {
  const out: ModelInfo = { ...info, source: "settings" };
  if (override.contextWindow !== undefined) out.contextWindow = override.contextWindow;
  if (override.maxOutputTokens !== undefined) out.maxOutputTokens = override.maxOutputTokens;
  if (override.maxInputTokens !== undefined) out.maxInputTokens = override.maxInputTokens;
  if (override.price !== undefined) out.price = override.price;
  return out;
}
