// The sandbox policy for Bash commands on Linux: bubblewrap mounts (writable working directories,
// protected paths read-only, Read deny rules hidden), no network unless allowed, a seccomp filter
// against Unix sockets, and the note that explains a failure the sandbox caused.

export { sandboxFailureNote } from "./annotate.js";
export {
  bubblewrapArgs,
  probeBubblewrap,
  type SandboxAvailability,
  type SandboxPolicy,
  SECCOMP_FD,
  sandboxCommandLine,
} from "./bubblewrap.js";
export {
  parseSandboxSettings,
  type ResolvedSandboxSettings,
  resolveSandboxSettings,
  type SandboxSettings,
} from "./config.js";
export { type DomainDecision, type DomainLists, decideHost, hostMatches, refusalMessage } from "./domain-filter.js";
export { hostSocketsToHide, socketsNamedByEnvironment } from "./host-sockets.js";
export { closeNetworkProxies, type NetworkProxy, networkProxyFor, startNetworkProxy } from "./network-proxy.js";
export { type SandboxPolicyInput, sandboxPolicyFor } from "./policy.js";
export { findSocat, type NetworkBridge, PROXY_PORT, proxyEnvironment } from "./proxy-launch.js";
export { type HiddenPath, literalRulePath, readDeniedPaths } from "./read-deny.js";
export { unixSocketFilter } from "./seccomp.js";
