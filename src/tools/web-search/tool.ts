// WebSearch: searches the web. With a provider that searches by itself (Anthropic's server-side
// web_search tool) the session's side query runs the search (at most MAX_SERVER_SEARCHES per
// call) and its results, summary and citations come back; otherwise a search service named in
// settings (`webSearch`: Brave, Tavily or a SearXNG instance, ./backends/) answers. A backend in
// settings wins over the provider's own search. The session offers the tool only when one of the
// two is there (src/tools/registry.ts).
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { ServerWebSearch, SideQueryCitation } from "../../tool/side-query.js";
import type { Tool } from "../../tool/types.js";
import { markUntrusted } from "../web-shared/untrusted.js";
import { type SearchHit, searchWithBackend, type WebSearchBackendConfig } from "./backends/index.js";
import { filterByDomain, normalizeDomain } from "./domains.js";
import {
  MAX_SERVER_SEARCHES,
  WEB_SEARCH_PROMPT,
  WEB_SEARCH_SYSTEM,
  WEB_SEARCH_TOOL_NAME,
  webSearchUserPrompt,
} from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    query: z.string().min(2).describe("The search query"),
    allowed_domains: z.array(z.string()).optional().describe("Only include results from these domains"),
    blocked_domains: z.array(z.string()).optional().describe("Never include results from these domains"),
  }),
);

export type WebSearchInput = z.infer<typeof inputSchema>;

export interface WebSearchOutput {
  query: string;
  /** Who searched: the model's provider, or the named backend. */
  searchedWith: string;
  /** Each search run (the provider may run several for one query; a backend runs one). */
  searches: Array<{ query: string; hits: SearchHit[]; error?: string }>;
  /** The provider model's summary of the results (server-side search only). */
  summary?: string;
  citations: SideQueryCitation[];
  durationMs: number;
}

export interface WebSearchToolOptions {
  /** Settings `webSearch`: the search service to use. Absent: the provider's server-side search. */
  backend?: WebSearchBackendConfig;
}

export function createWebSearchTool(options: WebSearchToolOptions = {}): Tool<WebSearchInput, WebSearchOutput> {
  const { backend } = options;
  return buildTool<WebSearchInput, WebSearchOutput>({
    name: WEB_SEARCH_TOOL_NAME,
    shouldDefer: true,
    maxResultSizeChars: 100_000,
    inputSchema,
    prompt: async () => WEB_SEARCH_PROMPT,
    description: async (input) => `Search the web for ${input?.query ?? "a query"}`,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isOpenWorld: () => true,
    interruptBehavior: () => "cancel",
    toAutoClassifierInput: (input) => input.query,

    async validateInput(input) {
      if (input.allowed_domains?.length && input.blocked_domains?.length) {
        return {
          result: false,
          message: "Give allowed_domains or blocked_domains, not both.",
          errorCode: 1,
        };
      }
      return { result: true };
    },

    // Searching sends the query to a search service and changes nothing here; it still asks by
    // default (a query can carry what the user would rather not send), and a rule allows it.
    async checkPermissions() {
      return {
        behavior: "passthrough",
        message: `${WEB_SEARCH_TOOL_NAME} sends the query to a search service.`,
        suggestions: [
          {
            type: "addRules",
            behavior: "allow",
            rules: [{ toolName: WEB_SEARCH_TOOL_NAME }],
            destination: "localSettings",
          },
        ],
      };
    },

    async call(input, context) {
      const started = Date.now();
      const allowed = input.allowed_domains?.map(normalizeDomain).filter(Boolean);
      const blocked = input.blocked_domains?.map(normalizeDomain).filter(Boolean);
      const signal = context.abortController.signal;
      if (backend) {
        const hits = await searchWithBackend(
          backend,
          { query: input.query, allowedDomains: allowed, blockedDomains: blocked },
          signal,
        );
        return {
          data: {
            query: input.query,
            searchedWith: backend.provider,
            searches: [{ query: input.query, hits: filterByDomain(hits, allowed, blocked) }],
            citations: [],
            durationMs: Date.now() - started,
          },
        };
      }
      const sideQuery = context.options.sideQuery;
      if (!sideQuery?.serverWebSearch) {
        throw new Error(
          'No web search is available: the model\'s provider does not search by itself, and no search backend is set in settings ("webSearch": { "provider": "brave" | "tavily" | "searxng", ... }).',
        );
      }
      const answer = await sideQuery.run({
        purpose: WEB_SEARCH_TOOL_NAME,
        model: "main",
        system: WEB_SEARCH_SYSTEM,
        prompt: webSearchUserPrompt(input.query),
        signal,
        webSearch: { maxUses: MAX_SERVER_SEARCHES, allowedDomains: allowed, blockedDomains: blocked },
      });
      return {
        data: {
          query: input.query,
          searchedWith: "the model provider's web search",
          searches: answer.searches.map((search: ServerWebSearch) => ({
            query: search.query,
            hits: filterByDomain(
              search.hits.map((hit) => ({
                title: hit.title,
                url: hit.url,
                ...(hit.pageAge ? { age: hit.pageAge } : {}),
              })),
              allowed,
              blocked,
            ),
            ...(search.errorCode ? { error: search.errorCode } : {}),
          })),
          summary: answer.text.trim() || undefined,
          citations: answer.citations,
          durationMs: Date.now() - started,
        },
      };
    },

    mapToolResult(output, toolUseId) {
      return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
    },
  });
}

function hitLine(hit: SearchHit, index: number): string {
  const age = hit.age ? ` (${hit.age})` : "";
  const snippet = hit.snippet ? `\n   ${hit.snippet.replace(/\s+/g, " ").slice(0, 400)}` : "";
  return `${index + 1}. [${hit.title.replace(/[[\]]/g, "")}](${hit.url})${age}${snippet}`;
}

function resultText(output: WebSearchOutput): string {
  const parts: string[] = [];
  for (const search of output.searches) {
    const heading = `Search: ${search.query || output.query}`;
    if (search.error) parts.push(`${heading}\nThe search failed: ${search.error}.`);
    else if (search.hits.length === 0) parts.push(`${heading}\nNo results.`);
    else parts.push(`${heading}\n${search.hits.map(hitLine).join("\n")}`);
  }
  if (output.searches.length === 0) parts.push("No search was run.");
  if (output.summary) parts.push(`Summary:\n${output.summary}`);
  const cited = [...new Map(output.citations.map((c) => [c.url, c])).values()];
  if (cited.length > 0) {
    parts.push(
      `Cited:\n${cited.map((c) => `- [${(c.title ?? c.url).replace(/[[\]]/g, "")}](${c.url}): "${c.citedText.slice(0, 200)}"`).join("\n")}`,
    );
  }
  const seconds = (output.durationMs / 1000).toFixed(1);
  return `Web search for "${output.query}" (${output.searchedWith}, ${seconds} s).\n\n${markUntrusted(parts.join("\n\n"), `search: ${output.query}`)}\n\nCite the pages you use as markdown links in your answer.`;
}

/** Offered when the provider searches server-side; sessions with a backend use createWebSearchTool. */
export const WebSearchTool = createWebSearchTool();
