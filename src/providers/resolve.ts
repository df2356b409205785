// `--model provider:model` → a ready Provider. Each adapter (and its SDK) is imported only when
// chosen, so a replayed session never loads an SDK and an Anthropic session never loads OpenAI's.
import { type RetryOptions, withRetry } from "./retry.js";
import type { Provider } from "./types.js";

export interface ResolvedProvider {
  provider: Provider;
  /** The model name sent to the API (the part after the first colon). */
  model: string;
  providerName: string;
}

export interface ResolveOptions {
  cwd: string;
  /** Passed to withRetry for network providers (tests use small delays). */
  retry?: RetryOptions;
  /** Key and base URL from settings; each falls back to the provider's environment variables. */
  anthropic?: { apiKey?: string; baseURL?: string };
  openai?: { apiKey?: string; baseURL?: string };
}

/** OpenAI-compatible servers reachable by a short prefix. */
interface CompatiblePreset {
  baseURL: () => string;
  /** The env var holding the key, for hosted services; local servers take none. */
  keyEnv?: string;
  note: string;
}

function ollamaBaseURL(): string {
  // OLLAMA_HOST is Ollama's own setting, often written without a scheme ("0.0.0.0:11434").
  const host = process.env.OLLAMA_HOST?.trim();
  if (!host) return "http://127.0.0.1:11434/v1";
  const withScheme = /^https?:\/\//.test(host) ? host : `http://${host}`;
  return `${withScheme.replace(/\/+$/, "")}/v1`;
}

const COMPATIBLE_PRESETS: Record<string, CompatiblePreset> = {
  ollama: { baseURL: ollamaBaseURL, note: "Ollama at http://127.0.0.1:11434/v1 (or OLLAMA_HOST)" },
  lmstudio: { baseURL: () => "http://127.0.0.1:1234/v1", note: "LM Studio at http://127.0.0.1:1234/v1" },
  llamacpp: { baseURL: () => "http://127.0.0.1:8080/v1", note: "llama.cpp server at http://127.0.0.1:8080/v1" },
  vllm: { baseURL: () => "http://127.0.0.1:8000/v1", note: "vLLM at http://127.0.0.1:8000/v1" },
  openrouter: {
    baseURL: () => "https://openrouter.ai/api/v1",
    keyEnv: "OPENROUTER_API_KEY",
    note: "OpenRouter (OPENROUTER_API_KEY)",
  },
  deepseek: {
    baseURL: () => "https://api.deepseek.com/v1",
    keyEnv: "DEEPSEEK_API_KEY",
    note: "DeepSeek (DEEPSEEK_API_KEY)",
  },
};

export function modelSpecForms(): string {
  // Each form padded to the column the fixed lines below use (18 characters).
  const presets = Object.entries(COMPATIBLE_PRESETS).map(
    ([name, preset]) => `  ${`${name}:MODEL`.padEnd(16)}  ${preset.note}`,
  );
  return [
    "  anthropic:MODEL   Anthropic Messages API (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), e.g. anthropic:claude-sonnet-4-6",
    "  openai:MODEL      OpenAI Chat Completions or any compatible server (OPENAI_API_KEY, OPENAI_BASE_URL), e.g. openai:gpt-4.1",
    ...presets,
    "  replay:FILE       a scripted model from a JSONL file, one line per turn",
    "  sonnet, opus, haiku, claude-*   Claude Code's names: the Anthropic API",
  ].join("\n");
}

/**
 * Claude Code's model names: its aliases and bare `claude-*` ids mean the Anthropic API, so
 * `--model sonnet` (and the Agent SDK's `model: "claude-sonnet-4-6"`) work unchanged.
 */
export const ANTHROPIC_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "claude-sonnet-4-6",
  opus: "claude-opus-4-6",
  haiku: "claude-haiku-4-5",
};

/** Claude Code's variables that choose the model an alias stands for (a full model name each). */
const ALIAS_VARIABLES: Readonly<Record<string, string>> = {
  sonnet: "ANTHROPIC_DEFAULT_SONNET_MODEL",
  opus: "ANTHROPIC_DEFAULT_OPUS_MODEL",
  haiku: "ANTHROPIC_DEFAULT_HAIKU_MODEL",
};

/**
 * `provider:model` for a name Claude Code users write; anything else unchanged. `default` is
 * Claude Code's recommended model (Sonnet, for API users), and each alias follows its
 * `ANTHROPIC_DEFAULT_*_MODEL` variable when set, as there (an Anthropic-compatible server's own
 * model names: `ANTHROPIC_DEFAULT_SONNET_MODEL=glm-4.6`).
 */
export function canonicalModelSpec(spec: string, env: NodeJS.ProcessEnv = process.env): string {
  const name = spec.trim();
  // `sonnet[1m]`, `claude-sonnet-4-6[1m]`: the model with its 1M-token window (anthropic.ts).
  const longContext = /\[1m\]$/i.test(name) ? "[1m]" : "";
  const base = name.slice(0, name.length - longContext.length);
  const aliasName = base.toLowerCase() === "default" ? "sonnet" : base.toLowerCase();
  const alias = ANTHROPIC_ALIASES[aliasName];
  if (alias) {
    const variable = ALIAS_VARIABLES[aliasName];
    const chosen = (variable && env[variable]?.trim()) || alias;
    return `anthropic:${chosen}${longContext}`;
  }
  if (!name.includes(":") && /^claude-[A-Za-z0-9.-]+$/.test(base)) return `anthropic:${name}`;
  return spec;
}

/**
 * The file of this machine a model spec reads its answers from (`replay:FILE`, the path as
 * written), or undefined for a model reached over the network. A fleet worker asks this of every
 * job's model: a spec that reads a file would read the worker's disk.
 */
export function modelSpecFile(given: string): string | undefined {
  const spec = canonicalModelSpec(given);
  const colon = spec.indexOf(":");
  if (colon < 0) return undefined;
  const providerName = spec.slice(0, colon).trim().toLowerCase();
  return providerName === "replay" ? spec.slice(colon + 1).trim() : undefined;
}

/**
 * What is wrong with a `provider:model` spec's form (a provider Warden does not know, nothing after
 * the colon), found without loading any provider; undefined when it names one. A fleet submitter
 * asks this so a job that could never start is refused before it is queued.
 */
export function providerSpecProblem(given: string): string | undefined {
  const spec = canonicalModelSpec(given);
  const colon = spec.indexOf(":");
  if (colon < 0) return undefined;
  const providerName = spec.slice(0, colon).trim().toLowerCase();
  if (!spec.slice(colon + 1).trim()) return `nothing follows "${providerName}:"`;
  const known = ["anthropic", "openai", ...Object.keys(COMPATIBLE_PRESETS), "replay"];
  return known.includes(providerName) ? undefined : `unknown provider "${providerName}" (known: ${known.join(", ")})`;
}

function specError(spec: string, problem: string): Error {
  return new Error(`Invalid model "${spec}": ${problem}. Use one of:\n${modelSpecForms()}`);
}

export async function resolveProvider(given: string, opts: ResolveOptions): Promise<ResolvedProvider> {
  const spec = canonicalModelSpec(given);
  const colon = spec.indexOf(":");
  if (colon < 0) throw specError(spec, "it has no provider prefix");
  const providerName = spec.slice(0, colon).trim().toLowerCase();
  // Everything after the first colon, so Ollama tags like "llama3.1:8b" stay whole.
  const model = spec.slice(colon + 1).trim();
  if (!model) throw specError(spec, `nothing follows "${providerName}:"`);

  if (providerName === "replay") {
    const { createReplayProvider } = await import("./replay.js");
    return { provider: createReplayProvider(model, { cwd: opts.cwd }), model, providerName };
  }
  if (providerName === "anthropic") {
    const { createAnthropicProvider } = await import("./anthropic.js");
    return { provider: withRetry(createAnthropicProvider(opts.anthropic), opts.retry), model, providerName };
  }
  if (providerName === "openai") {
    const { createOpenAIProvider } = await import("./openai.js");
    return { provider: withRetry(createOpenAIProvider(opts.openai), opts.retry), model, providerName };
  }
  const preset = COMPATIBLE_PRESETS[providerName];
  if (preset) {
    let apiKey: string | undefined;
    if (preset.keyEnv) {
      apiKey = process.env[preset.keyEnv];
      if (!apiKey) throw new Error(`${providerName}:${model} needs an API key: set ${preset.keyEnv}.`);
    }
    const { createOpenAIProvider } = await import("./openai.js");
    // An explicit key (a placeholder for local servers) so OPENAI_API_KEY never leaks to another host.
    const provider = createOpenAIProvider({
      baseURL: preset.baseURL(),
      apiKey: apiKey ?? providerName,
      name: providerName,
    });
    return { provider: withRetry(provider, opts.retry), model, providerName };
  }
  throw specError(spec, `unknown provider "${providerName}"`);
}
