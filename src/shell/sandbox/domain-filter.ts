// Which hosts a sandboxed command may reach through the filtering proxy (network-proxy.ts):
// `sandbox.network.allowedDomains` names them (exact names, or `*.example.com` for any name under
// example.com, not example.com itself), `sandbox.network.deniedDomains` refuses names even when an
// allowed pattern covers them. Names are compared lower-cased, without a trailing dot or IPv6
// brackets; an address is matched as written (`127.0.0.1` is not `localhost`).

export interface DomainLists {
  allowed: readonly string[];
  denied: readonly string[];
}

export type DomainDecision = { allowed: true } | { allowed: false; reason: "denied" | "not-allowed" };

export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

export function hostMatches(host: string, pattern: string): boolean {
  const name = normalizeHost(host);
  const wanted = normalizeHost(pattern);
  if (wanted === "*") return true;
  if (wanted.startsWith("*.")) return name.endsWith(wanted.slice(1)) && name.length > wanted.length - 1;
  return name === wanted;
}

/** Deny patterns win over allow patterns; a host no allow pattern names is refused. */
export function decideHost(host: string, lists: DomainLists): DomainDecision {
  if (lists.denied.some((pattern) => hostMatches(host, pattern))) return { allowed: false, reason: "denied" };
  if (lists.allowed.some((pattern) => hostMatches(host, pattern))) return { allowed: true };
  return { allowed: false, reason: "not-allowed" };
}

/** The body of the proxy's 403: the host, and the setting that decides it. */
export function refusalMessage(host: string, decision: DomainDecision): string {
  const name = normalizeHost(host);
  if (decision.allowed) return "";
  if (decision.reason === "denied")
    return `Warden sandbox: the network connection to ${name} was refused: it matches sandbox.network.deniedDomains or a WebFetch(domain:...) deny rule in the settings.\n`;
  return `Warden sandbox: the network connection to ${name} was refused: it is not in sandbox.network.allowedDomains. Add "${name}" there in the settings (or allow WebFetch(domain:${name})) to allow it.\n`;
}
