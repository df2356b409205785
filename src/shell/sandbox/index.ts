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
} from "./bubblewrap.js";
export {
  parseSandboxSettings,
  type ResolvedSandboxSettings,
  resolveSandboxSettings,
  type SandboxSettings,
} from "./config.js";
export { hostSocketsToHide, socketsNamedByEnvironment } from "./host-sockets.js";
export { type SandboxPolicyInput, sandboxPolicyFor } from "./policy.js";
export { type HiddenPath, literalRulePath, readDeniedPaths } from "./read-deny.js";
export { unixSocketFilter } from "./seccomp.js";
