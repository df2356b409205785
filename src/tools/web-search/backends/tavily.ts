// Tavily (https://docs.tavily.com/documentation/api-reference/endpoint/search): POST JSON with a
// bearer key; it filters by domain itself (include_domains, exclude_domains).
import { hitsFrom, isRecord, jsonBody } from "./parse.js";
import type { SearchBackend } from "./types.js";

export const tavilyBackend: SearchBackend = {
  name: "tavily",
  defaultUrl: "https://api.tavily.com/search",
  defaultKeyEnv: "TAVILY_API_KEY",
  async search(query, request) {
    const url = new URL(request.config.url ?? this.defaultUrl!);
    const body: Record<string, unknown> = {
      query: query.query,
      max_results: Math.min(query.maxResults, 20),
      search_depth: "basic",
    };
    if (query.allowedDomains?.length) body.include_domains = query.allowedDomains;
    if (query.blockedDomains?.length) body.exclude_domains = query.blockedDomains;
    const response = await request.send(url, {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        authorization: `Bearer ${request.apiKey ?? ""}`,
      },
      body: JSON.stringify(body),
    });
    const answer = jsonBody("Tavily", response);
    return hitsFrom(isRecord(answer) ? answer.results : undefined, { snippet: "content", age: "published_date" });
  },
};
