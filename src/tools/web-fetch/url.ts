// The URL WebFetch will really request: http and https only, no credentials in it, and plain
// http upgraded to https except on loopback (a local dev server rarely speaks TLS, and nothing
// on the way can read loopback traffic).
import { isLoopbackHost } from "../web-shared/addresses.js";

export const MAX_URL_LENGTH = 2000;

export type FetchTarget = { url: URL; upgraded: boolean } | { error: string };

export function fetchTarget(raw: string): FetchTarget {
  if (raw.length > MAX_URL_LENGTH) return { error: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: `Not a valid URL: ${raw}. Give an absolute http(s) URL, e.g. https://example.com/page.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { error: `WebFetch reads http and https URLs only, not ${url.protocol.replace(/:$/, "")}.` };
  }
  if (url.username || url.password) {
    return { error: "The URL carries a user name or password; WebFetch does not send credentials." };
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    const upgraded = new URL(url.href);
    upgraded.protocol = "https:";
    return { url: upgraded, upgraded: true };
  }
  return { url, upgraded: false };
}

/**
 * A redirect WebFetch follows by itself: the same host and port (http to https included). Any
 * other host, `www.` added or removed too, is the model's to fetch anew, so that its permission
 * (rules are per host) is decided on its own.
 */
export function sameHost(from: URL, to: URL): boolean {
  return from.hostname === to.hostname && effectivePort(from) === effectivePort(to);
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}
