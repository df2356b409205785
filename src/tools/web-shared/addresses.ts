// Which addresses are the local network rather than the internet: loopback, private ranges,
// link-local (cloud metadata services live at 169.254.169.254), carrier-grade NAT, unspecified,
// multicast and reserved blocks, in IPv4 and IPv6, with IPv4 embedded in IPv6 (mapped, NAT64)
// judged as the IPv4 it carries. Node's BlockList does the range arithmetic.
import { BlockList, isIP } from "node:net";

const PRIVATE_V4: ReadonlyArray<[string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

const PRIVATE_V6: ReadonlyArray<[string, number]> = [
  ["::", 128], // unspecified
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed locally)
  ["ff00::", 8], // multicast
];

const LOOPBACK_V4: [string, number] = ["127.0.0.0", 8];

const privateBlocks = new BlockList();
for (const [net, prefix] of PRIVATE_V4) privateBlocks.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of PRIVATE_V6) privateBlocks.addSubnet(net, prefix, "ipv6");

const loopbackBlocks = new BlockList();
loopbackBlocks.addSubnet(LOOPBACK_V4[0], LOOPBACK_V4[1], "ipv4");
loopbackBlocks.addAddress("::1", "ipv6");

/** A URL's hostname without IPv6 brackets, lower-cased, without a trailing dot. */
export function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

/** The IPv4 address an IPv6 address carries (::ffff:a.b.c.d, 64:ff9b::a.b.c.d), if it carries one. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True for an IP address of the local network (see the header); false for a public one or a name. */
export function isPrivateAddress(address: string): boolean {
  const host = bareHost(address);
  const family = isIP(host);
  if (family === 4) return privateBlocks.check(host, "ipv4");
  if (family !== 6) return false;
  const v4 = embeddedV4(host);
  if (v4) return privateBlocks.check(v4, "ipv4");
  return privateBlocks.check(host, "ipv6");
}

/** `localhost` and its subdomains resolve to this machine whatever DNS says (RFC 6761). */
export function isLocalhostName(hostname: string): boolean {
  const host = bareHost(hostname);
  return host === "localhost" || host.endsWith(".localhost");
}

/** Loopback: localhost, 127.0.0.0/8, ::1 (and IPv4 loopback inside IPv6). */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname);
  if (isLocalhostName(host)) return true;
  const family = isIP(host);
  if (family === 4) return loopbackBlocks.check(host, "ipv4");
  if (family !== 6) return false;
  const v4 = embeddedV4(host);
  return v4 ? loopbackBlocks.check(v4, "ipv4") : loopbackBlocks.check(host, "ipv6");
}

/** A host that is the local network by its very name: an address of it, or localhost. */
export function isPrivateHostLiteral(hostname: string): boolean {
  return isLocalhostName(hostname) || isPrivateAddress(hostname);
}
