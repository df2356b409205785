// A search service WebSearch can use when the model's provider does not search by itself. Each
// backend turns a query into a list of hits; domain filters are applied again by the tool, so a
// backend that cannot filter by domain only costs a few results.
import type { WEB_SEARCH_BACKENDS, WebSearchSettings } from "../../../config/settings-schema.js";
import type { HttpResponse } from "../../web-shared/http-request.js";

export type WebSearchBackendName = (typeof WEB_SEARCH_BACKENDS)[number];

/** Settings `webSearch` (src/config/settings-schema.ts): which service, where, the variable holding its key. */
export type WebSearchBackendConfig = WebSearchSettings;

export interface SearchHit {
  title: string;
  url: string;
  snippet?: string;
  /** How old the page is, when the service says. */
  age?: string;
}

export interface BackendQuery {
  query: string;
  allowedDomains?: readonly string[];
  blockedDomains?: readonly string[];
  maxResults: number;
}

/** What a backend needs to send its request: the configured URL and key, and the HTTP client. */
export interface BackendRequest {
  config: WebSearchBackendConfig;
  apiKey?: string;
  send(
    url: URL,
    init?: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  ): Promise<HttpResponse>;
}

export interface SearchBackend {
  readonly name: WebSearchBackendName;
  /** The official endpoint (none for SearXNG: it is self-hosted). */
  readonly defaultUrl?: string;
  /** The default environment variable of its key (none: no key needed). */
  readonly defaultKeyEnv?: string;
  search(query: BackendQuery, request: BackendRequest): Promise<SearchHit[]>;
}
