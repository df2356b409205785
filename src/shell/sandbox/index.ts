// The sandbox policy for Bash commands on Linux: bubblewrap mounts (writable working directories,
// protected paths read-only, no repository planted for git to trust, Read deny rules hidden), no network unless allowed, a seccomp filter
// against Unix sockets, and the note that explains a failure the sandbox caused. The filtering
// network proxy (network-proxy.ts) is not re-exported: it loads node:http, so it is imported
// lazily, by the first command that needs it.

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
export { type GitGuard, gitGuardFor, holdMountPoints, releaseMountPoints } from "./git-guard.js";
export { hostSocketsToHide, socketsNamedByEnvironment } from "./host-sockets.js";
export { type SandboxPolicyInput, sandboxPolicyFor } from "./policy.js";
export {
  findSocat,
  loopbackNamesKeptDirect,
  type NetworkBridge,
  PROXY_PORT,
  proxyEnvironment,
  SOCKS_PORT,
} from "./proxy-launch.js";
export { type HiddenPath, literalRulePath, readDeniedPaths } from "./read-deny.js";
export { unixSocketFilter } from "./seccomp.js";
