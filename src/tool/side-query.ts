// A side query: a tool asks a model one question of its own, outside the conversation (WebFetch
// has a small fast model read a page for the prompt; WebSearch has the model search the web with
// the provider's server-side tool). The session implements it (src/loop/side-query.ts) with its
// own provider, and what the request costs is counted in the session's ledger like any other.
import type { Usage } from "../messages/types.js";

/** Which model answers: the provider's small fast one (the default), or the session's own. */
export type SideQueryModel = "small" | "main";

/** The provider's server-side web search, as one side request may use it. */
export interface ServerWebSearchOptions {
  /** At most this many searches in the request. */
  maxUses: number;
  /** Only results from these domains (never together with blockedDomains). */
  allowedDomains?: readonly string[];
  /** Never results from these domains. */
  blockedDomains?: readonly string[];
}

export interface SideQueryRequest {
  /**
   * Who asks, by tool name (`WebFetch`, `WebSearch`). The replay provider answers side queries
   * from the lines of its script that carry this name as `"side"`.
   */
  purpose: string;
  system: string;
  /** The one user message. */
  prompt: string;
  /** Output limit; the model's own limit caps it. Default 4096. */
  maxTokens?: number;
  model?: SideQueryModel;
  /** A model of the session's provider by id (a hook's `model`); wins over `model`. */
  modelId?: string;
  /** Cancels the request (pass the tool call's signal). */
  signal: AbortSignal;
  /** Let the model search the web with the provider's server-side tool (see SideQuery.serverWebSearch). */
  webSearch?: ServerWebSearchOptions;
}

/** One result of a server-side search. */
export interface WebSearchHit {
  title: string;
  url: string;
  /** How old the page is, as the search service says it ("3 days ago"), when it does. */
  pageAge?: string;
}

/** One search the model ran server-side, with what it found or why it failed. */
export interface ServerWebSearch {
  query: string;
  hits: WebSearchHit[];
  /** Set when the search failed (`max_uses_exceeded`, `unavailable`, ...). */
  errorCode?: string;
}

/** A passage of the answer's text backed by a search result. */
export interface SideQueryCitation {
  url: string;
  title?: string;
  citedText: string;
}

export interface SideQueryResult {
  /** The answer's text, blocks joined in order. */
  text: string;
  /** The model that answered (without the provider prefix). */
  model: string;
  usage: Usage;
  /** Server-side searches, in the order they ran (only with `webSearch`). */
  searches: ServerWebSearch[];
  citations: SideQueryCitation[];
}

/** What ToolUseContextOptions.sideQuery offers a tool. */
export interface SideQuery {
  /** True when the provider can search the web server-side (`webSearch` in a request works). */
  readonly serverWebSearch: boolean;
  /** Sends one request and waits for the whole answer; throws on a model error or abort. */
  run(request: SideQueryRequest): Promise<SideQueryResult>;
}
