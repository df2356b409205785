import { isAbsolute, resolve } from "node:path";
import { canonicalModelSpec, resolveProvider } from "../../providers/resolve.js";
import type { RetryInfo } from "../../providers/retry.js";
import type { Provider } from "../../providers/types.js";

export const DEFAULT_OPENAI_MODEL = "openai:gpt-4.1";

/**
 * The `provider:model` to use when no model is named, or an explanation of why there is none. With
 * Anthropic credentials (a key, or the bearer token a proxy takes) it is Claude Code's default:
 * the `sonnet` alias, which ANTHROPIC_DEFAULT_SONNET_MODEL may point elsewhere.
 */
export function defaultModelSpec(env: NodeJS.ProcessEnv = process.env): { spec: string } | { error: string } {
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN) return { spec: canonicalModelSpec("default", env) };
  if (env.OPENAI_API_KEY) return { spec: DEFAULT_OPENAI_MODEL };
  return {
    error:
      "no model chosen: pass --model provider:model (e.g. anthropic:claude-sonnet-4-6, openai:gpt-4.1, ollama:llama3.1, replay:FILE), or set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) or OPENAI_API_KEY",
  };
}

/** Whether a model name is Claude Code's `opusplan`: Opus in plan mode, Sonnet otherwise (opusplan.ts). */
export function isOpusPlan(spec: string): boolean {
  return spec.trim().toLowerCase() === "opusplan";
}

/**
 * Claude Code's ANTHROPIC_MODEL: the model when no flag names one. It is an Anthropic API model
 * by definition, so a name without Warden's provider prefix (a Bedrock id's `:0` is no prefix)
 * means the Anthropic API; an alias is resolved as for --model.
 */
export function anthropicModelFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.ANTHROPIC_MODEL?.trim();
  if (!value) return undefined;
  if (value.startsWith("anthropic:")) return value;
  const canonical = canonicalModelSpec(value, env);
  return canonical.startsWith("anthropic:") ? canonical : `anthropic:${value}`;
}

export interface ResolvedModel {
  provider: Provider;
  /** The model name the provider expects. */
  model: string;
  /** `provider:model`, as shown in the init line and the system prompt. */
  label: string;
}

/** Turns `--model` into a provider; each provider's code (and SDK) is loaded only when chosen. */
export async function resolveModel(
  spec: string,
  cwd: string,
  /** Told before each retry of a failed request (the Agent SDK's `api_retry` lines). */
  onRetry?: (info: RetryInfo) => void,
): Promise<ResolvedModel> {
  // A script path on the command line is relative to where the command runs (as the shell
  // completed it), not to --cwd; `{{cwd}}` inside the script still means the session's cwd.
  const replayFile = /^replay:(.+)$/.exec(spec)?.[1];
  if (replayFile !== undefined && !isAbsolute(replayFile)) spec = `replay:${resolve(replayFile)}`;
  const { provider, model, providerName } = await resolveProvider(spec, {
    cwd,
    ...(onRetry && { retry: { onRetry } }),
  });
  return { provider, model, label: `${providerName}:${model}` };
}
