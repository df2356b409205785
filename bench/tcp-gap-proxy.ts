// A transparent TCP proxy that timestamps traffic in each direction, so a benchmark can see, as
// the model server would, how long an agent takes from the last byte of one response to the
// first byte of its next request. Nothing inside the agent is instrumented.
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { performance } from "node:perf_hooks";

export interface GapProxy {
  /** http://127.0.0.1:PORT, forwarding to the target. */
  url: string;
  /** ms from the end of the previous response to the start of each request, in order. */
  gaps: number[];
  /** performance.now() (this process) of the first byte of each request, in order. */
  requestStarts: number[];
  close(): Promise<void>;
}

export async function startGapProxy(targetUrl: string): Promise<GapProxy> {
  const target = new URL(targetUrl);
  const gaps: number[] = [];
  const requestStarts: number[] = [];
  let lastDirection: "up" | "down" | undefined;
  let lastDownAt = 0;
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on("data", (chunk) => {
      const now = performance.now();
      if (lastDirection === "down") gaps.push(now - lastDownAt);
      if (lastDirection !== "up") requestStarts.push(now);
      lastDirection = "up";
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      lastDownAt = performance.now();
      lastDirection = "down";
      client.write(chunk);
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", closeBoth);
    upstream.on("close", closeBoth);
    client.on("error", closeBoth);
    upstream.on("error", closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    gaps,
    requestStarts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
