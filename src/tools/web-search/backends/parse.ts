// Reading a search service's JSON answer: a body that is not JSON, or not the shape expected,
// becomes an error that says which service answered what.
import type { HttpResponse } from "../../web-shared/http-request.js";
import type { SearchHit } from "./types.js";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON body of a 2xx answer, or an error naming the service and its status. */
export function jsonBody(service: string, response: HttpResponse): unknown {
  const text = response.body.toString("utf8");
  if (response.status < 200 || response.status >= 300) {
    const hint =
      response.status === 401 || response.status === 403
        ? " (check the API key)"
        : response.status === 429
          ? " (rate limited: try again later)"
          : "";
    throw new Error(`${service} answered ${response.status}${hint}: ${text.slice(0, 300)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${service} did not answer JSON: ${text.slice(0, 200)}`);
  }
}

/** Hits from a list of result objects, keeping those with a string title and an http(s) URL. */
export function hitsFrom(results: unknown, fields: { snippet: string; age?: string }): SearchHit[] {
  if (!Array.isArray(results)) return [];
  const hits: SearchHit[] = [];
  for (const result of results) {
    if (!isRecord(result) || typeof result.url !== "string" || !/^https?:\/\//i.test(result.url)) continue;
    const hit: SearchHit = { title: typeof result.title === "string" ? result.title : result.url, url: result.url };
    const snippet = result[fields.snippet];
    if (typeof snippet === "string" && snippet.trim()) hit.snippet = snippet.trim();
    const age = fields.age ? result[fields.age] : undefined;
    if (typeof age === "string" && age.trim()) hit.age = age.trim();
    hits.push(hit);
  }
  return hits;
}

/** `site:` operators for engines that take them in the query: one allowed domain, every blocked one. */
export function withSiteOperators(
  query: string,
  allowed: readonly string[] | undefined,
  blocked: readonly string[] | undefined,
): string {
  const parts = [query];
  if (allowed?.length === 1) parts.push(`site:${allowed[0]}`);
  for (const domain of blocked ?? []) parts.push(`-site:${domain}`);
  return parts.join(" ");
}
