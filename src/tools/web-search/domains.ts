// allowed_domains / blocked_domains against a result's URL: a domain covers itself and its
// subdomains (`python.org` covers docs.python.org). Entries may be written as URLs or with `www.`.
export function normalizeDomain(domain: string): string {
  let text = domain.trim().toLowerCase();
  if (/^[a-z]+:\/\//.test(text)) {
    try {
      text = new URL(text).hostname;
    } catch {
      // Kept as written: it will match nothing, which the caller's filter then says.
    }
  }
  return text
    .replace(/^\*\./, "")
    .replace(/^www\./, "")
    .replace(/\/.*$/, "")
    .replace(/\.$/, "");
}

export function hostCovered(url: string, domains: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return false;
  }
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** Keeps what the filters let through: only allowed domains when there are some, never blocked ones. */
export function filterByDomain<T extends { url: string }>(
  hits: readonly T[],
  allowed: readonly string[] | undefined,
  blocked: readonly string[] | undefined,
): T[] {
  return hits.filter(
    (hit) => (!allowed?.length || hostCovered(hit.url, allowed)) && !(blocked?.length && hostCovered(hit.url, blocked)),
  );
}
