// How a command whose network is filtered by domain is started. The command's sandbox (bubblewrap
// with the seccomp filter that refuses Unix sockets) runs inside an outer bubblewrap that only
// makes a fresh network namespace, holding nothing but its loopback. In that outer layer, before
// the command starts, socat listens on 127.0.0.1:PROXY_PORT (HTTP) and 127.0.0.1:SOCKS_PORT
// (SOCKS5) and carries each connection to the filtering proxy's matching Unix socket outside (as
// @anthropic-ai/sandbox-runtime bridges it). The bridge
// sits outside the seccomp filter, which the command cannot leave, so the one way out of the
// namespace is the proxy. The outer layer has its own PID namespace: when the command ends, socat
// ends with it.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The HTTP proxy's port on the sandbox's own loopback (private to each sandbox's namespace). */
export const PROXY_PORT = 3128;
/** The SOCKS5 proxy's port there. */
export const SOCKS_PORT = 1080;

export interface NetworkBridge {
  socatPath: string;
  /** The filtering HTTP proxy's Unix socket on the host. */
  socketPath: string;
  /** The filtering SOCKS5 proxy's Unix socket on the host. */
  socksSocketPath: string;
  /**
   * The loopback names the command reaches directly, on the sandbox's own loopback (NO_PROXY):
   * those the lists do not allow (loopbackNamesKeptDirect).
   */
  directHosts: readonly string[];
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];

/**
 * A loopback name the lists allow means the host's own (a dev server the person runs): it goes
 * through the proxy, which connects from outside the sandbox. Every other loopback name stays
 * direct, so a server the command starts inside its sandbox is reached there.
 */
export function loopbackNamesKeptDirect(isAllowed: (host: string) => boolean): string[] {
  return LOOPBACK_NAMES.filter((name) => !isAllowed(name));
}

export function findSocat(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.WARDEN_SOCAT_PATH) return env.WARDEN_SOCAT_PATH;
  for (const dir of (env.PATH ?? "/usr/bin:/bin").split(delimiter)) {
    const candidate = join(dir, "socat");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** The variables that point programs in the sandbox at the proxy. */
export function proxyEnvironment(directHosts: readonly string[]): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  // socks5h: the client sends the name and the proxy decides on it (and never resolves it to
  // decide); with plain socks5 a client resolves the name itself and sends an address, which is
  // refused unless the lists name that address.
  const socks = `socks5h://127.0.0.1:${SOCKS_PORT}`;
  const direct = directHosts.join(",");
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: socks,
    all_proxy: socks,
    ...(direct && { NO_PROXY: direct, no_proxy: direct }),
  };
}

// Waits (up to about five seconds) until both socats listen, read from /proc/net/tcp, so the
// command's first connection does not race the bridge. 0A is TCP_LISTEN; the port is in hex. This layer is
// outside the command's sandbox, so grep and sleep come from the system folders only: the session's
// PATH may name folders the sandboxed command can write (node_modules/.bin). The command gets its
// PATH back.
const listening = (port: number) => `grep -qi ':${port.toString(16).padStart(4, "0")} 00000000:0000 0A' /proc/net/tcp`;
const BRIDGE_SCRIPT = [
  "s=$1; u=$2; v=$3; shift 3; p=$PATH; PATH=/usr/bin:/bin",
  `"$s" TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr "$u" </dev/null >/dev/null 2>&1 3<&- 4<&- &`,
  `"$s" TCP-LISTEN:${SOCKS_PORT},bind=127.0.0.1,fork,reuseaddr "$v" </dev/null >/dev/null 2>&1 3<&- 4<&- &`,
  "i=0",
  `while [ $i -lt 500 ] && ! { ${listening(PROXY_PORT)} && ${listening(SOCKS_PORT)}; }; do sleep 0.01; i=$((i+1)); done`,
  'PATH=$p; exec "$@"',
].join("\n");

/** The outer bubblewrap's arguments, up to and including the inner command line's start. */
export function bridgeArgs(bridge: NetworkBridge): string[] {
  return [
    "--die-with-parent",
    "--unshare-net",
    "--unshare-pid",
    "--dev-bind",
    "/",
    "/",
    // Its own /proc: the inner bwrap looks itself up there by its PID in this namespace.
    "--proc",
    "/proc",
    "--",
    "/bin/sh",
    "-c",
    BRIDGE_SCRIPT,
    "warden-network-bridge",
    bridge.socatPath,
    `UNIX-CONNECT:${bridge.socketPath}`,
    `UNIX-CONNECT:${bridge.socksSocketPath}`,
  ];
}
