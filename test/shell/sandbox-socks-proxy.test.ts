import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseSandboxSettings } from "../../src/shell/sandbox/index.js";
import { closeNetworkProxies, networkProxyFor } from "../../src/shell/sandbox/network-proxy.js";
import { parseGreeting, parseRequest, replyBytes, SocksReply } from "../../src/shell/sandbox/socks5.js";
import { createSession, type Session, text } from "../tools/bash/harness.js";
import { proxyTestSkipReason } from "./sandbox-proxy-prerequisites.js";

const skipReason = await proxyTestSkipReason();

const bytes = (...values: number[]) => Buffer.from(values);
/** A CONNECT request by name. */
const byName = (name: string, port: number) =>
  Buffer.concat([bytes(5, 1, 0, 3, name.length), Buffer.from(name, "latin1"), bytes(port >> 8, port & 0xff)]);
/** A CONNECT request by IPv4 address. */
const byAddress = (address: number[], port: number) => bytes(5, 1, 0, 1, ...address, port >> 8, port & 0xff);

let http: Server;
let httpPort = 0;

beforeAll(async () => {
  http = createServer((req, res) => res.end(`hello from the host, path ${req.url}`));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  httpPort = (http.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await closeNetworkProxies();
});

describe("SOCKS5 handshake parsing", () => {
  it("accepts a no-authentication greeting and waits for the rest of a partial one", () => {
    expect(parseGreeting(bytes(5, 2, 2, 0))).toEqual({ kind: "ok", value: true, consumed: 4 });
    expect(parseGreeting(bytes(5))).toEqual({ kind: "incomplete" });
    expect(parseGreeting(bytes(5, 3, 0))).toEqual({ kind: "incomplete" });
  });

  it("refuses a greeting of another version, with no methods, or with authentication only", () => {
    const otherVersion = parseGreeting(bytes(4, 1, 0));
    // No answer at all: the client does not speak SOCKS5.
    expect(otherVersion.kind === "error" && otherVersion.reply).toBe(undefined);
    expect(otherVersion.kind).toBe("error");
    // An HTTP request sent to the SOCKS port is not mistaken for one.
    expect(parseGreeting(Buffer.from("GET / HTTP/1.1\r\n"))).toMatchObject({ kind: "error" });
    expect(parseGreeting(bytes(5, 0))).toMatchObject({ kind: "error", reply: 0xff });
    expect(parseGreeting(bytes(5, 1, 2))).toMatchObject({ kind: "error", reply: 0xff });
  });

  it("reads CONNECT by name, IPv4 and IPv6 address, and waits for a partial request", () => {
    expect(parseRequest(byName("localhost", 8080))).toEqual({
      kind: "ok",
      value: { host: "localhost", port: 8080 },
      consumed: 7 + "localhost".length,
    });
    expect(parseRequest(byAddress([127, 0, 0, 1], 443))).toEqual({
      kind: "ok",
      value: { host: "127.0.0.1", port: 443 },
      consumed: 10,
    });
    const loopback6 = bytes(5, 1, 0, 4, ...new Array(15).fill(0), 1, 0, 80);
    expect(parseRequest(loopback6)).toMatchObject({ kind: "ok", value: { host: "::1", port: 80 } });
    expect(parseRequest(byName("localhost", 8080).subarray(0, 8))).toEqual({ kind: "incomplete" });
    expect(parseRequest(bytes(5, 1, 0))).toEqual({ kind: "incomplete" });
  });

  it("refuses malformed requests with the RFC's reply codes", () => {
    expect(parseRequest(bytes(4, 1, 0, 1, 127, 0, 0, 1, 0, 80))).toMatchObject({
      kind: "error",
      reply: SocksReply.generalFailure,
    });
    expect(parseRequest(bytes(5, 1, 7, 1, 127, 0, 0, 1, 0, 80))).toMatchObject({
      kind: "error",
      reply: SocksReply.generalFailure,
    });
    expect(parseRequest(bytes(5, 2, 0, 1, 127, 0, 0, 1, 0, 80))).toMatchObject({
      kind: "error",
      reply: SocksReply.commandNotSupported,
    });
    expect(parseRequest(bytes(5, 3, 0, 1, 127, 0, 0, 1, 0, 80))).toMatchObject({
      reply: SocksReply.commandNotSupported,
    });
    expect(parseRequest(bytes(5, 1, 0, 9, 127, 0, 0, 1, 0, 80))).toMatchObject({
      reply: SocksReply.addressTypeNotSupported,
    });
    expect(parseRequest(bytes(5, 1, 0, 3, 0, 0, 80))).toMatchObject({ reply: SocksReply.generalFailure });
    expect(parseRequest(byAddress([127, 0, 0, 1], 0))).toMatchObject({ reply: SocksReply.generalFailure });
  });

  it("refuses a name that is not a host name rather than matching or resolving it", () => {
    for (const name of ["localhost\0.evil", "local host", "[::1]", "::1", "-x", "a/b", "localhost:80"])
      expect(parseRequest(byName(name, 80)), name).toMatchObject({ kind: "error", reply: SocksReply.generalFailure });
  });
});

/** Opens a raw connection to the proxy's SOCKS socket, sends `data`, and collects what comes back until it closes. */
async function exchange(socketPath: string, steps: Buffer[]): Promise<Buffer> {
  const socket: Socket = connect(socketPath);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  for (const step of steps) socket.write(step);
  await new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return Buffer.concat(chunks);
}

describe("SOCKS5 proxy over its Unix socket", () => {
  const lists = { allowed: ["localhost"], denied: ["denied.localhost"] };

  it("tunnels to an allowed name and answers with the target's bytes", async () => {
    const { socksSocketPath } = await networkProxyFor(lists);
    const answer = await exchange(socksSocketPath, [
      bytes(5, 1, 0),
      Buffer.concat([
        byName("localhost", httpPort),
        // Sent before the proxy's reply: must reach the server once connected.
        Buffer.from("GET /raw HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      ]),
    ]);
    expect(answer.subarray(0, 2)).toEqual(bytes(5, 0));
    expect(answer.subarray(2, 12)).toEqual(replyBytes(SocksReply.succeeded));
    expect(answer.subarray(12).toString()).toContain("hello from the host, path /raw");
  });

  it("refuses an address the lists do not name, and a denied name, as not allowed by ruleset", async () => {
    const { socksSocketPath } = await networkProxyFor(lists);
    const byIp = await exchange(socksSocketPath, [bytes(5, 1, 0), byAddress([127, 0, 0, 1], httpPort)]);
    expect([...byIp]).toEqual([5, 0, ...replyBytes(SocksReply.notAllowedByRuleset)]);
    const denied = await exchange(socksSocketPath, [bytes(5, 1, 0), byName("denied.localhost", httpPort)]);
    expect([...denied]).toEqual([5, 0, ...replyBytes(SocksReply.notAllowedByRuleset)]);
  });

  it("answers malformed greetings and requests and closes, without connecting anywhere", async () => {
    const { socksSocketPath } = await networkProxyFor(lists);
    expect([...(await exchange(socksSocketPath, [bytes(5, 1, 2)]))]).toEqual([5, 0xff]);
    expect([...(await exchange(socksSocketPath, [bytes(4, 1, 0, 80, 127, 0, 0, 1, 0)]))]).toEqual([]);
    expect([...(await exchange(socksSocketPath, [bytes(5, 1, 0), bytes(5, 2, 0, 3, 9)]))]).toEqual([
      5,
      0,
      ...replyBytes(SocksReply.commandNotSupported),
    ]);
    expect([...(await exchange(socksSocketPath, [bytes(5, 1, 0), byName("local host", httpPort)]))]).toEqual([
      5,
      0,
      ...replyBytes(SocksReply.generalFailure),
    ]);
    // A greeting offering 255 methods, none of them no-authentication.
    expect([...(await exchange(socksSocketPath, [bytes(5, 255), Buffer.alloc(255, 1)]))]).toEqual([5, 0xff]);
  });
});

describe.skipIf(skipReason !== undefined)(
  `sandbox network: SOCKS5 through bubblewrap${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    const sessions: Session[] = [];
    afterEach(async () => {
      for (const session of sessions.splice(0)) await session.cleanup();
    });
    function sandboxed(network: Record<string, unknown>): Session {
      const session = createSession({ sandboxSettings: parseSandboxSettings({ enabled: true, network }) });
      sessions.push(session);
      return session;
    }

    it("sets ALL_PROXY to the SOCKS5 proxy, by name (socks5h)", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"] });
      const result = await session.run("Bash", { command: 'echo "$ALL_PROXY|$all_proxy|$HTTPS_PROXY"' });
      expect(text(result)).toBe("socks5h://127.0.0.1:1080|socks5h://127.0.0.1:1080|http://127.0.0.1:3128");
    });

    it("reaches an allowed name with curl --socks5-hostname and through ALL_PROXY alone", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"] });
      const explicit = await session.run("Bash", {
        command: `curl -sS --noproxy '' --max-time 10 --socks5-hostname 127.0.0.1:1080 http://localhost:${httpPort}/socks`,
      });
      expect(text(explicit)).toBe("hello from the host, path /socks");
      // With the HTTP variables gone curl takes ALL_PROXY, the SOCKS5 proxy.
      const fromEnv = await session.run("Bash", {
        command: `env -u http_proxy -u HTTP_PROXY curl -sS --noproxy '' --max-time 10 http://localhost:${httpPort}/env`,
      });
      expect(text(fromEnv)).toBe("hello from the host, path /env");
    });

    it("refuses a host outside the list, and a name resolved to an address by the client", async () => {
      const session = sandboxed({ allowedDomains: ["localhost"] });
      const refused = await session.run("Bash", {
        command: `curl -sS --noproxy '' --max-time 10 --socks5-hostname 127.0.0.1:1080 http://127.0.0.1:${httpPort}/refused`,
      });
      expect(refused.is_error).toBe(true);
      expect(text(refused)).not.toContain("hello from the host");
      expect(text(refused)).toContain("SOCKS5");
      expect(text(refused)).toContain("<sandbox_violation>");
      // --socks5: curl resolves localhost itself and asks for 127.0.0.1, which is not listed.
      const resolved = await session.run("Bash", {
        command: `curl -sS --noproxy '' --max-time 10 --socks5 127.0.0.1:1080 http://localhost:${httpPort}/resolved`,
      });
      expect(resolved.is_error).toBe(true);
      expect(text(resolved)).not.toContain("hello from the host");
    });

    it("lets an address through when the list names that address", async () => {
      const session = sandboxed({ allowedDomains: ["127.0.0.1"] });
      const result = await session.run("Bash", {
        command: `curl -sS --noproxy '' --max-time 10 --socks5 127.0.0.1:1080 http://localhost:${httpPort}/by-address`,
      });
      expect(text(result)).toBe("hello from the host, path /by-address");
    });

    it("refuses a denied name that an allowed pattern covers", async () => {
      const session = sandboxed({ allowedDomains: ["*.localhost", "localhost"], deniedDomains: ["localhost"] });
      const result = await session.run("Bash", {
        command: `curl -sS --noproxy '' --max-time 10 --socks5-hostname 127.0.0.1:1080 http://localhost:${httpPort}/denied`,
      });
      expect(result.is_error).toBe(true);
      expect(text(result)).not.toContain("hello from the host");
    });
  },
);
