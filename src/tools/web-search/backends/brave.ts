// Brave Search API (https://api.search.brave.com/app/documentation/web-search): GET with the key in
// X-Subscription-Token; results under web.results with title, url, description, age.
import { hitsFrom, isRecord, jsonBody, withSiteOperators } from "./parse.js";
import type { SearchBackend } from "./types.js";

export const braveBackend: SearchBackend = {
  name: "brave",
  defaultUrl: "https://api.search.brave.com/res/v1/web/search",
  defaultKeyEnv: "BRAVE_API_KEY",
  async search(query, request) {
    const url = new URL(request.config.url ?? this.defaultUrl!);
    url.searchParams.set("q", withSiteOperators(query.query, query.allowedDomains, query.blockedDomains));
    url.searchParams.set("count", String(Math.min(query.maxResults, 20)));
    const response = await request.send(url, {
      headers: { accept: "application/json", "x-subscription-token": request.apiKey ?? "" },
    });
    const body = jsonBody("Brave Search", response);
    const web = isRecord(body) && isRecord(body.web) ? body.web : undefined;
    return hitsFrom(web?.results, { snippet: "description", age: "age" });
  },
};
