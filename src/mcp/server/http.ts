// `warden mcp serve --port N`: streamable HTTP on 127.0.0.1 only. Each client session gets its own
// server (its own read-before-write memory). Every request must carry the server's bearer token:
// 127.0.0.1 is reachable by every local process of every user, and the tools act as the user who
// started the server. Host and Origin headers are checked too, so a web page cannot reach the port
// through DNS rebinding or a cross-site request.
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { bearerTokenMatches } from "./http-token.js";

export const MCP_HTTP_PATH = "/mcp";
const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

export interface RunningHttpServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }));
}

/**
 * Why a request may not reach the MCP endpoint, or undefined when it may: a Host that is not this
 * server's (DNS rebinding), an Origin of another site (a page's cross-site request), then the token.
 */
function refusal(req: IncomingMessage, allowedHosts: readonly string[], token: string): [number, string] | undefined {
  if (!allowedHosts.includes(req.headers.host ?? "")) return [403, "Forbidden: invalid Host header"];
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.some((host) => origin === `http://${host}`)) {
    return [403, "Forbidden: invalid Origin header"];
  }
  if (!bearerTokenMatches(req.headers.authorization, token)) {
    return [401, "Unauthorized: send the server's token as 'Authorization: Bearer <token>'"];
  }
  return undefined;
}

/** `token`: what every request must carry as `Authorization: Bearer <token>`. */
export async function serveStreamableHttp(
  port: number,
  makeServer: () => Promise<Server>,
  token: string,
): Promise<RunningHttpServer> {
  if (token.length < 16) throw new Error("the MCP server's token must be at least 16 characters");
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];

  const http: HttpServer = createServer(async (req, res) => {
    try {
      const refused = refusal(req, allowedHosts, token);
      if (refused) {
        // Read nothing of a refused request's body: an unauthenticated client gets no work done.
        const [status, message] = refused;
        refuse(res, status, message, status === 401 ? { "www-authenticate": 'Bearer realm="warden-mcp"' } : {});
        return;
      }
      if (new URL(req.url ?? "/", "http://localhost").pathname !== MCP_HTTP_PATH) {
        res.writeHead(404, { "content-type": "text/plain" }).end(`Not found: the MCP endpoint is ${MCP_HTTP_PATH}\n`);
        return;
      }
      const body = req.method === "POST" ? await readJsonBody(req) : undefined;
      const sessionId = req.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (!transport) {
        if (typeof sessionId === "string") {
          res.writeHead(404, { "content-type": "application/json" });
          res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unknown session" }, id: null }));
          return;
        }
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
          enableDnsRebindingProtection: true,
          allowedHosts,
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        transport = created;
        await (await makeServer()).connect(created);
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) {
        res.writeHead(400, { "content-type": "application/json" });
        const message = error instanceof Error ? error.message : String(error);
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message }, id: null }));
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", () => resolve());
  });
  const address = http.address();
  const bound = typeof address === "object" && address ? address.port : port;
  allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}${MCP_HTTP_PATH}`,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
