// A reverse proxy for the MCP conformance suite, which has no way to send a header: it adds the
// server's bearer token to every request and speaks for the server's own Host and Origin (a
// foreign one, as the suite's DNS rebinding scenario sends, passes through unchanged, so the
// server itself still refuses it).
import { createServer, request, type Server } from "node:http";

export interface TokenProxy {
  url: string;
  close(): Promise<void>;
}

export async function startTokenProxy(target: string, token: string): Promise<TokenProxy> {
  const upstream = new URL(target);
  let own = "";
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === own) headers.host = upstream.host;
    if (headers.origin === `http://${own}`) headers.origin = `http://${upstream.host}`;
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  own = `127.0.0.1:${port}`;
  return {
    url: `http://${own}${upstream.pathname}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
