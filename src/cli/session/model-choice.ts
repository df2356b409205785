import { isAbsolute, resolve } from "node:path";
import { resolveProvider } from "../../providers/resolve.js";
import type { RetryInfo } from "../../providers/retry.js";
import type { Provider } from "../../providers/types.js";

export const DEFAULT_ANTHROPIC_MODEL = "anthropic:claude-sonnet-4-6";
export const DEFAULT_OPENAI_MODEL = "openai:gpt-4.1";

/** The `provider:model` to use when --model is not given, or an explanation of why there is none. */
export function defaultModelSpec(env: NodeJS.ProcessEnv = process.env): { spec: string } | { error: string } {
  if (env.ANTHROPIC_API_KEY) return { spec: DEFAULT_ANTHROPIC_MODEL };
  if (env.OPENAI_API_KEY) return { spec: DEFAULT_OPENAI_MODEL };
  return {
    error:
      "no model chosen: pass --model provider:model (e.g. anthropic:claude-sonnet-4-6, openai:gpt-4.1, ollama:llama3.1, replay:FILE), or set ANTHROPIC_API_KEY or OPENAI_API_KEY",
  };
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
