// Tells the model when a failure is the sandbox's doing, so it does not debug a "broken" build
// that only lacked write access or network.
import type { SandboxPolicy } from "./bubblewrap.js";

const WRITE_BLOCKED = [/Read-only file system/i, /\bEROFS\b/];
const NETWORK_BLOCKED = [
  /Network is unreachable/i,
  /\bENETUNREACH\b/,
  /Could not resolve host/i,
  /Temporary failure in name resolution/i,
  /Name or service not known/i,
  /\bEAI_AGAIN\b/,
  /getaddrinfo/i,
  /Connection refused/i,
  /Failed to connect to/i,
  /Couldn't connect to server/i,
  /Could not connect/i,
  /Network unreachable/i,
  /\bECONNREFUSED\b/,
];

/** What curl and other clients print when the filtering proxy refuses a host. */
const PROXY_REFUSED = [
  /Warden sandbox: the network connection to/,
  /CONNECT tunnel failed, response 403/i,
  /Received HTTP code 403 from proxy/i,
  /\b403 Forbidden\b/,
  // The SOCKS5 side answers "not allowed by ruleset" (reply 2), which curl reports this way.
  /Can't complete SOCKS5 connection to/i,
  /SOCKS5? (?:request|connect).*(?:not allowed|ruleset|failed)/i,
];

/** A note for the model when a failed sandboxed command's output shows the sandbox stopped it. */
export function sandboxFailureNote(
  output: string,
  policy: SandboxPolicy,
  unsandboxedAllowed: boolean,
): string | undefined {
  const reasons: string[] = [];
  if (WRITE_BLOCKED.some((pattern) => pattern.test(output))) {
    reasons.push(
      `writes are allowed only inside ${policy.writableDirectories.join(", ")} (settings files, .git/hooks and .git/config stay read-only)`,
    );
  }
  if (!policy.allowNetwork && policy.networkBridge) {
    if (
      PROXY_REFUSED.some((pattern) => pattern.test(output)) ||
      NETWORK_BLOCKED.some((pattern) => pattern.test(output))
    )
      reasons.push(
        "the network is limited to the hosts in sandbox.network.allowedDomains and WebFetch(domain:...) allow rules, reached through the proxies in HTTP_PROXY/HTTPS_PROXY and ALL_PROXY (SOCKS5); other hosts are refused (the HTTP proxy answers 403, the SOCKS5 proxy 'not allowed by ruleset'), and programs that ignore those variables get no network",
      );
  } else if (!policy.allowNetwork && NETWORK_BLOCKED.some((pattern) => pattern.test(output))) {
    reasons.push("the network is off (not even the host's 127.0.0.1 services are reachable)");
  }
  if (!reasons.length) return undefined;
  const retry = unsandboxedAllowed
    ? " If the command truly needs this, run it again with dangerouslyDisableSandbox: true (the user will be asked)."
    : " Running outside the sandbox is not allowed by the settings.";
  return `<sandbox_violation>This command ran in the sandbox and appears to have failed because of it: ${reasons.join("; ")}.${retry}</sandbox_violation>`;
}
