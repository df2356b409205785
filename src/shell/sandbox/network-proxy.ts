// The filtering proxy behind a sandbox whose network is limited to some domains. It listens on two
// Unix sockets in a private folder (socat bridges each to a TCP port on the sandbox's own loopback,
// see proxy-launch.ts): one speaks HTTP proxying (CONNECT for https and other tunnels, absolute
// URLs for plain http), the other SOCKS5 (socks5.ts). Only hosts the domain lists allow get
// through, decided the same way on both; a refused HTTP request gets a 403 whose body names the
// host and the setting to change, a refused SOCKS request the RFC's "not allowed by ruleset".
// Started in process, lazily, once per set of lists, on the first sandboxed command that needs it.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DomainLists, decideHost, refusalMessage } from "./domain-filter.js";
import { serveSocks5 } from "./socks5.js";

export interface NetworkProxy {
  /** The Unix socket the HTTP proxy listens on. */
  socketPath: string;
  /** The Unix socket the SOCKS5 proxy listens on. */
  socksSocketPath: string;
  close(): Promise<void>;
}

const running = new Map<string, Promise<NetworkProxy>>();

/** The proxy for these lists, started on first use and shared by every later command. */
export function networkProxyFor(lists: DomainLists): Promise<NetworkProxy> {
  const key = JSON.stringify([[...lists.allowed].sort(), [...lists.denied].sort()]);
  let proxy = running.get(key);
  if (!proxy) {
    proxy = startNetworkProxy(lists);
    running.set(key, proxy);
    proxy.catch(() => running.delete(key));
  }
  return proxy;
}

/** Stops every proxy networkProxyFor started (a test's teardown; Warden's exit removes them too). */
export async function closeNetworkProxies(): Promise<void> {
  const proxies = [...running.values()];
  running.clear();
  await Promise.all(proxies.map(async (proxy) => (await proxy.catch(() => undefined))?.close()));
}

export async function startNetworkProxy(lists: DomainLists): Promise<NetworkProxy> {
  // A private folder (mode 0700 from mkdtemp): nothing else on the machine should use the proxy.
  // The name stays free of `:` and `,`, which socat's address syntax would read.
  const dir = mkdtempSync(join(tmpdir(), "warden-netproxy-"));
  const socketPath = join(dir, "proxy.sock");
  const socksSocketPath = join(dir, "socks.sock");
  const server = createServer((req, res) => forwardHttp(req, res, lists));
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(req, client, head, lists));
  server.on("clientError", (_error, socket: Socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });
  const socksClients = new Set<Socket>();
  const socks = createTcpServer((client) => {
    socksClients.add(client);
    client.once("close", () => socksClients.delete(client));
    serveSocks5(client, lists);
  });
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await listen(server, socketPath);
    await listen(socks, socksSocketPath);
  } catch (error) {
    server.close();
    cleanup();
    throw error;
  }
  // The proxy must not keep Warden running, and its folder goes when Warden does.
  server.unref();
  socks.unref();
  process.once("exit", cleanup);
  return {
    socketPath,
    socksSocketPath,
    close: async () => {
      process.removeListener("exit", cleanup);
      const closed = Promise.all([
        new Promise((resolve) => server.close(resolve)),
        new Promise((resolve) => socks.close(resolve)),
      ]);
      server.closeAllConnections();
      for (const client of socksClients) client.destroy();
      await closed;
      cleanup();
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  if (!match?.[1]) return undefined;
  const port = match[2] ? Number(match[2]) : defaultPort;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: match[1].replace(/^\[(.*)\]$/, "$1"), port };
}

function refusal(host: string, lists: DomainLists): string | undefined {
  const decision = decideHost(host, lists);
  return decision.allowed ? undefined : refusalMessage(host, decision);
}

function tunnel(req: IncomingMessage, client: Socket, head: Buffer, lists: DomainLists): void {
  client.on("error", () => {});
  const target = splitHostPort(req.url ?? "", 443);
  if (!target) {
    client.end(rawResponse(400, "Bad Request", `Warden sandbox: CONNECT needs host:port, got ${req.url}\n`));
    return;
  }
  const refused = refusal(target.host, lists);
  if (refused) {
    client.end(rawResponse(403, "Forbidden", refused));
    return;
  }
  let connected = false;
  const upstream = connect(target.port, target.host, () => {
    connected = true;
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", (error) => {
    if (!connected && !client.writableEnded)
      client.end(rawResponse(502, "Bad Gateway", `Warden sandbox proxy: ${target.host}: ${error.message}\n`));
    else client.destroy();
  });
  client.on("close", () => upstream.destroy());
}

function forwardHttp(req: IncomingMessage, res: ServerResponse, lists: DomainLists): void {
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    sendText(res, 400, `Warden sandbox proxy: expected an absolute http:// URL, got ${req.url}\n`);
    return;
  }
  if (url.protocol !== "http:") {
    sendText(res, 400, `Warden sandbox proxy: only http:// is proxied this way (use CONNECT for ${url.protocol})\n`);
    return;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const refused = refusal(host, lists);
  if (refused) {
    sendText(res, 403, refused);
    return;
  }
  const headers = { ...req.headers };
  delete headers["proxy-connection"];
  delete headers["proxy-authorization"];
  const upstream = httpRequest(
    { host, port: url.port || 80, method: req.method, path: `${url.pathname}${url.search}`, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", (error) => {
    if (!res.headersSent) sendText(res, 502, `Warden sandbox proxy: ${host}: ${error.message}\n`);
    else res.destroy();
  });
  req.pipe(upstream);
}

function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function rawResponse(status: number, reason: string, body: string): string {
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
