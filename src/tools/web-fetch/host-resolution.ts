// Where a host really is. A name may resolve to the local network (a DNS record pointing at
// 127.0.0.1 or 10.0.0.5, or at the cloud metadata address), so the permission check resolves it
// and treats it as private when any address is. What the check judged is remembered per host on
// the session (HostJudgements, kept in its AppState); the fetch connects only to addresses it resolves again, and refuses them when they turn
// a host judged public into a private one (DNS rebinding: a record that answers a public address
// to the check and 127.0.0.1 to the fetch). A host the check never judged (a whole-tool ask rule
// settles the call before the tool's own check runs) was approved by a person who saw its URL.
import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { bareHost, isLocalhostName, isPrivateAddress } from "../web-shared/addresses.js";

export interface HostResolution {
  host: string;
  addresses: LookupAddress[];
  /** True when the host is the local network by name or by any of its addresses. */
  isPrivate: boolean;
  /** The private address found, for messages. */
  privateAddress?: string;
  /** Set when the name did not resolve. */
  error?: string;
}

/**
 * Hosts one session's permission checks judged: true = judged private, so a private answer was
 * asked about or named by a rule. Held by the session (AppState.webFetchHostJudgements), never by
 * this module, so it ends with the session and no session sees another's.
 */
export type HostJudgements = Map<string, boolean>;

export async function resolveHost(hostname: string): Promise<HostResolution> {
  const host = bareHost(hostname);
  const family = isIP(host);
  if (family !== 0) {
    const isPrivate = isPrivateAddress(host);
    return { host, addresses: [{ address: host, family }], isPrivate, ...(isPrivate ? { privateAddress: host } : {}) };
  }
  let addresses: LookupAddress[] = [];
  let error: string | undefined;
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch (failure) {
    const code = (failure as NodeJS.ErrnoException).code;
    error = code === "ENOTFOUND" ? "the host name does not resolve" : String(code ?? failure);
  }
  const privateAddress = addresses.find((entry) => isPrivateAddress(entry.address))?.address;
  const isPrivate = isLocalhostName(host) || privateAddress !== undefined;
  return {
    host,
    addresses,
    isPrivate,
    ...(privateAddress ? { privateAddress } : isLocalhostName(host) ? { privateAddress: host } : {}),
    ...(error ? { error } : {}),
  };
}

/** The permission check's verdict on a host, for the fetch to hold the addresses to. */
export function recordJudgement(judged: HostJudgements, resolution: HostResolution): void {
  // Once judged private (and so asked about or named by a rule), it stays so for the session.
  judged.set(resolution.host, judged.get(resolution.host) === true || resolution.isPrivate);
}

/**
 * The addresses to connect to, or why not: a host that resolves to the local network now but was
 * judged public is refused.
 */
export async function addressesForFetch(
  judged: HostJudgements,
  hostname: string,
): Promise<{ addresses: LookupAddress[] } | { error: string }> {
  const resolution = await resolveHost(hostname);
  if (resolution.error) return { error: `${resolution.host}: ${resolution.error}` };
  if (resolution.addresses.length === 0) return { error: `${resolution.host} has no address` };
  if (resolution.isPrivate && judged.get(resolution.host) === false) {
    return {
      error: `${resolution.host} now resolves to the local address ${resolution.privateAddress}, but it was approved as a public host; refusing to connect (its DNS answer changed since the permission check).`,
    };
  }
  return { addresses: resolution.addresses };
}
