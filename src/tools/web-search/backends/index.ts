// The search backends by name, and one search through the configured one.
import { httpRequest } from "../../web-shared/http-request.js";
import { braveBackend } from "./brave.js";
import { searxngBackend } from "./searxng.js";
import { tavilyBackend } from "./tavily.js";
import type { BackendQuery, SearchBackend, SearchHit, WebSearchBackendConfig, WebSearchBackendName } from "./types.js";

export type { SearchHit, WebSearchBackendConfig, WebSearchBackendName } from "./types.js";

const BACKENDS: Record<WebSearchBackendName, SearchBackend> = {
  brave: braveBackend,
  tavily: tavilyBackend,
  searxng: searxngBackend,
};

const SEARCH_TIMEOUT_MS = 30_000;
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_RESULTS = 10;

/** The environment variable holding the backend's key, or undefined when it needs none. */
export function backendKeyEnv(config: WebSearchBackendConfig): string | undefined {
  return config.apiKeyEnv ?? BACKENDS[config.provider].defaultKeyEnv;
}

export async function searchWithBackend(
  config: WebSearchBackendConfig,
  query: Omit<BackendQuery, "maxResults">,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  const backend = BACKENDS[config.provider];
  const keyEnv = backendKeyEnv(config);
  const apiKey = keyEnv ? process.env[keyEnv] : undefined;
  if (keyEnv && !apiKey) {
    throw new Error(`The ${config.provider} search backend needs an API key: set ${keyEnv} in the environment.`);
  }
  return backend.search(
    { ...query, maxResults: config.maxResults ?? DEFAULT_MAX_RESULTS },
    {
      config,
      apiKey,
      send: (url, init) =>
        httpRequest(url, { ...init, maxBytes: MAX_ANSWER_BYTES, timeoutMs: SEARCH_TIMEOUT_MS, signal }),
    },
  );
}
