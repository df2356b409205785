// SearXNG, self-hosted (https://docs.searxng.org/dev/search_api.html): GET /search?format=json. The
// instance must allow the json format (`search.formats` in its settings.yml); a 403 says it does not.
import { hitsFrom, isRecord, jsonBody, withSiteOperators } from "./parse.js";
import type { SearchBackend } from "./types.js";

export const searxngBackend: SearchBackend = {
  name: "searxng",
  async search(query, request) {
    if (!request.config.url)
      throw new Error(
        'SearXNG needs the instance\'s URL: settings "webSearch": { "provider": "searxng", "url": "http://..." }',
      );
    const base = new URL(request.config.url);
    // The instance may live under a path (https://host/searx/): /search goes below it.
    const url = new URL(`${base.pathname.replace(/\/+$/, "").replace(/\/search$/, "")}/search`, base);
    url.searchParams.set("q", withSiteOperators(query.query, query.allowedDomains, undefined));
    url.searchParams.set("format", "json");
    const response = await request.send(url, { headers: { accept: "application/json" } });
    if (response.status === 403) {
      throw new Error(
        "SearXNG refused the JSON format (403): enable it in the instance's settings.yml (search: formats: [html, json]).",
      );
    }
    const body = jsonBody("SearXNG", response);
    const hits = hitsFrom(isRecord(body) ? body.results : undefined, { snippet: "content", age: "publishedDate" });
    return hits.slice(0, query.maxResults);
  },
};
