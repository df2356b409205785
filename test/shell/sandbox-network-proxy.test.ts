import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { dirname } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  decideHost,
  hostMatches,
  parseSandboxSettings,
  refusalMessage,
  resolveSandboxSettings,
} from "../../src/shell/sandbox/index.js";
import { closeNetworkProxies, networkProxyFor } from "../../src/shell/sandbox/network-proxy.js";
import { createSession, type Session, text } from "../tools/bash/harness.js";
import { proxyTestSkipReason } from "./sandbox-proxy-prerequisites.js";

const skipReason = await proxyTestSkipReason();

let http: Server;
let httpPort = 0;
let echo: TcpServer;
let echoPort = 0;
const sessions: Session[] = [];

function sandboxed(network: Record<string, unknown>): Session {
  const session = createSession({
    sandboxSettings: parseSandboxSettings({ enabled: true, network }),
  });
  sessions.push(session);
  return session;
}

/** Command lines (of running processes) that contain `needle`. */
function processesWith(needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      if (argv.includes(needle)) found.push(argv);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.cleanup();
});

describe("sandbox network: domain matching", () => {
  it("matches exact names and *.domain wildcards, deny rules winning", () => {
    expect(hostMatches("api.example.com", "*.example.com")).toBe(true);
    expect(hostMatches("a.b.example.com", "*.example.com")).toBe(true);
    expect(hostMatches("example.com", "*.example.com")).toBe(false);
    expect(hostMatches("badexample.com", "*.example.com")).toBe(false);
    expect(hostMatches("Example.COM.", "example.com")).toBe(true);
    expect(hostMatches("127.0.0.1", "localhost")).toBe(false);
    const lists = { allowed: ["*.example.com"], denied: ["secret.example.com"] };
    expect(decideHost("www.example.com", lists)).toEqual({ allowed: true });
    expect(decideHost("secret.example.com", lists)).toEqual({ allowed: false, reason: "denied" });
    expect(decideHost("other.org", lists)).toEqual({ allowed: false, reason: "not-allowed" });
    expect(refusalMessage("other.org", { allowed: false, reason: "not-allowed" })).toContain('Add "other.org" there');
  });

  it("reads Claude Code's network.allowedDomains and deniedDomains; * is the whole network", () => {
    const narrow = resolveSandboxSettings({
      sandboxSettings: parseSandboxSettings({
        enabled: true,
        network: { allowedDomains: ["github.com", "*.npmjs.org", 7], deniedDomains: ["evil.npmjs.org"] },
      }),
    });
    expect(narrow.allowNetwork).toBe(false);
    expect(narrow.allowedDomains).toEqual(["github.com", "*.npmjs.org"]);
    expect(narrow.deniedDomains).toEqual(["evil.npmjs.org"]);
    const all = resolveSandboxSettings({
      sandboxSettings: parseSandboxSettings({ network: { allowedDomains: ["*", "github.com"] } }),
    });
    expect(all.allowNetwork).toBe(true);
    expect(all.allowedDomains).toEqual([]);
  });
});

describe.skipIf(skipReason !== undefined)(
  `sandbox network: filtering proxy${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    beforeAll(async () => {
      http = createServer((req, res) => res.end(`hello from the host, path ${req.url}`));
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      httpPort = (http.address() as AddressInfo).port;
      // Answers the first chunk and closes, so the client ends without waiting for a timeout.
      echo = createTcpServer((socket) => socket.once("data", (chunk) => socket.end(`echo: ${chunk}`)));
      await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
      echoPort = (echo.address() as AddressInfo).port;
    });

    afterAll(async () => {
      await new Promise((resolve) => http.close(resolve));
      await new Promise((resolve) => echo.close(resolve));
      await closeNetworkProxies();
    });

    it("sets the proxy variables in the command's environment; loopback names no list allows stay direct", async () => {
      const command = 'echo "$HTTP_PROXY|$HTTPS_PROXY|$https_proxy|$ALL_PROXY|$NO_PROXY|$no_proxy"';
      const proxies = "http://127.0.0.1:3128|http://127.0.0.1:3128|http://127.0.0.1:3128|socks5h://127.0.0.1:1080";
      const unlisted = await sandboxed({ allowedDomains: ["example.com"] }).run("Bash", { command });
      expect(text(unlisted)).toBe(`${proxies}|localhost,127.0.0.1,::1|localhost,127.0.0.1,::1`);
      // A listed loopback name means the host's own: the proxy carries it.
      const listed = await sandboxed({ allowedDomains: ["localhost"] }).run("Bash", { command });
      expect(text(listed)).toBe(`${proxies}|127.0.0.1,::1|127.0.0.1,::1`);
    });

    it("forwards plain http to an allowed host and refuses another with a 403 naming host and setting", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"] });
      // A plain curl, as a model would run it: the listed localhost is the host's, through the proxy.
      const allowed = await session.run("Bash", {
        command: `curl -sS --max-time 10 http://localhost:${httpPort}/allowed`,
      });
      expect(text(allowed)).toBe("hello from the host, path /allowed");

      // 127.0.0.1 is not listed, so it stays the sandbox's own loopback (nothing listens there).
      const ownLoopback = await session.run("Bash", {
        command: `curl -sS --max-time 5 http://127.0.0.1:${httpPort}/own-loopback`,
      });
      expect(ownLoopback.is_error).toBe(true);
      expect(text(ownLoopback)).not.toContain("hello from the host");

      // --noproxy '' overrides NO_PROXY, so the unlisted address goes to the proxy and is refused.

      const refused = await session.run("Bash", {
        command: `curl -sS --noproxy '' --max-time 10 -w '\\nstatus %{http_code}' http://127.0.0.1:${httpPort}/refused`,
      });
      const output = text(refused);
      expect(output).not.toContain("hello from the host");
      expect(output).toContain("status 403");
      expect(output).toContain(
        'the network connection to 127.0.0.1 was refused: it is not in sandbox.network.allowedDomains. Add "127.0.0.1" there',
      );
    });

    it("tunnels CONNECT to an allowed host (a raw TCP echo) and refuses it for another", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"], deniedDomains: ["denied.localhost"] });
      // curl -p tunnels even plain protocols through CONNECT; telnet:// sends stdin raw and prints the answer.
      const tunnelled = await session.run("Bash", {
        command: `printf 'ping through the tunnel\\n' | curl -sS --noproxy '' -p -x http://127.0.0.1:3128 --max-time 10 telnet://localhost:${echoPort}`,
      });
      expect(text(tunnelled)).toBe("echo: ping through the tunnel");

      const refused = await session.run("Bash", {
        command: `printf 'x\\n' | curl -sS --noproxy '' -p -x http://127.0.0.1:3128 --max-time 5 telnet://127.0.0.1:${echoPort}`,
      });
      expect(refused.is_error).toBe(true);
      expect(text(refused)).toContain("CONNECT tunnel failed, response 403");
      expect(text(refused)).toContain("<sandbox_violation>");
      expect(text(refused)).toContain("sandbox.network.allowedDomains");
    });

    it("has no network other than the proxy: a direct connection to the host fails", async () => {
      const session = sandboxed({ allowedDomains: ["localhost", "127.0.0.1"] });
      const result = await session.run("Bash", {
        command: `curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${httpPort}/direct`,
      });
      expect(result.is_error).toBe(true);
      expect(text(result)).not.toContain("hello from the host");
      // The same host through the proxy is allowed: only the bypass was stopped.
      const proxied = await session.run("Bash", {
        command: `curl -sS --noproxy '' --max-time 10 http://127.0.0.1:${httpPort}/proxied`,
      });
      expect(text(proxied)).toBe("hello from the host, path /proxied");
    });

    it("runs the bridge's helpers from the system folders, not from a PATH the command can write", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"] });
      // A grep planted in a writable folder first in PATH must not run outside the sandbox.
      const planted = `${session.project}/bin`;
      await session.run("Bash", {
        command: `mkdir -p bin && printf '#!/bin/sh\\ntouch /tmp/planted-${process.pid}\\nexit 1\\n' > bin/grep && chmod +x bin/grep`,
      });
      session.context.setAppState((state) => {
        const snapshot = state.bashShellSnapshot;
        return snapshot
          ? {
              ...state,
              bashShellSnapshot: { ...snapshot, env: { ...snapshot.env, PATH: `${planted}:${snapshot.env.PATH}` } },
            }
          : state;
      });
      const result = await session.run("Bash", { command: 'echo "$PATH" | cut -d: -f1' });
      expect(text(result)).toBe(planted);
      expect(existsSync(`/tmp/planted-${process.pid}`)).toBe(false);
    });

    it("keeps refusing Unix sockets to the command, the proxy's own socket included", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"] });
      const result = await session.run("Bash", {
        command: `python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1`,
      });
      expect(text(result)).toContain("PermissionError");
    });

    it("TaskStop ends a background task, the socat bridge with it", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"] });
      const { socketPath } = await networkProxyFor({ allowed: ["localhost"], denied: [] });
      const marker = `${300 + Math.floor(Math.random() * 1000)}.2468`;
      const started = await session.run("Bash", { command: `sleep ${marker}`, run_in_background: true });
      const id = /task id (\w+)/.exec(text(started))?.[1] ?? "missing";
      for (let i = 0; i < 200 && (processesWith(marker).length === 0 || processesWith(socketPath).length === 0); i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(processesWith(marker)).not.toEqual([]);
      expect(processesWith(socketPath)).not.toEqual([]);
      await session.run("TaskStop", { task_id: id });
      for (let i = 0; i < 200 && processesWith(socketPath).length > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(processesWith(marker)).toEqual([]);
      expect(processesWith(socketPath).filter((argv) => argv.includes("socat"))).toEqual([]);
    });

    it("starts one proxy per set of lists, in a private folder, and removes it when closed", async () => {
      const first = await networkProxyFor({ allowed: ["localhost"], denied: [] });
      expect(await networkProxyFor({ allowed: ["localhost"], denied: [] })).toBe(first);
      expect(statSync(dirname(first.socketPath)).mode & 0o777).toBe(0o700);
      await closeNetworkProxies();
      expect(existsSync(dirname(first.socketPath))).toBe(false);
    });
  },
);
