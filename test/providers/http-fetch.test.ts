import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { httpFetch, providerFetch } from "../../src/providers/http-fetch.js";
import { Headers as SdkHeaders } from "../../src/providers/sdk-headers.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Array<{ server: Server; sockets: Set<Socket> }> = [];

async function serve(handler: Handler): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    handler(req, res, Buffer.concat(chunks).toString("utf8"));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push({ server, sockets });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

// providerFetch makes the same requests and answers with an SdkResponse (no undici): every
// behaviour of the wire holds for both.
describe.each([
  ["httpFetch", httpFetch],
  ["providerFetch", providerFetch],
])("%s", (_name, fetchWith) => {
  it("sends method, headers and body, and exposes status, headers and url", async () => {
    const url = await serve((req, res, body) => {
      res.writeHead(201, { "content-type": "application/json", "x-echo": String(req.headers["x-api-key"]) });
      res.end(JSON.stringify({ method: req.method, body, contentType: req.headers["content-type"] }));
    });
    const response = await fetchWith(`${url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k-1", "content-type": "application/json" },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-echo")).toBe("k-1");
    expect(response.url).toBe(`${url}/v1/messages`);
    expect(await response.json()).toEqual({
      method: "POST",
      body: '{"hello":"world"}',
      contentType: "application/json",
    });
  });

  it("accepts headers as a Headers object and as pairs", async () => {
    const url = await serve((req, res) => res.end(`${req.headers["a"]}|${req.headers["b"]}`));
    const fromHeaders = await fetchWith(url, { headers: new Headers({ a: "1", b: "2" }) });
    expect(await fromHeaders.text()).toBe("1|2");
    const fromPairs = await fetchWith(url, {
      headers: [
        ["a", "3"],
        ["b", "4"],
      ],
    });
    expect(await fromPairs.text()).toBe("3|4");
  });

  it("streams the body: the first chunk is readable before the server sends the rest", async () => {
    let sendRest: () => void = () => {};
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("first\n");
      sendRest = () => res.end("second\n");
    });
    const response = await fetchWith(url);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("first\n");
    sendRest();
    let rest = "";
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += new TextDecoder().decode(part.value);
    expect(rest).toBe("second\n");
  });

  it("rejects with an AbortError when aborted before the response head", async () => {
    const url = await serve(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = fetchWith(url, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects at once when the signal is already aborted", async () => {
    const url = await serve((_req, res) => res.end("never read"));
    const controller = new AbortController();
    controller.abort();
    await expect(fetchWith(url, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("errors the body stream with an AbortError when aborted while streaming", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write("partial");
    });
    const controller = new AbortController();
    const response = await fetchWith(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const next = reader.read();
    controller.abort();
    await expect(next).rejects.toMatchObject({ name: "AbortError" });
  });

  it("errors the body stream when the server cuts the connection mid-body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: 1\n\n", () => res.socket?.destroy());
    });
    const response = await fetchWith(url);
    await expect(response.text()).rejects.toThrow(/closed before the response body ended|aborted|fetch failed/);
  });

  it("rejects with a TypeError naming the cause when nothing listens", async () => {
    const url = await serve((_req, res) => res.end());
    const { server, sockets } = servers.pop()!;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(fetchWith(url)).rejects.toThrow(/fetch failed: .*ECONNREFUSED/);
  });

  it("decompresses a gzip body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync("compressed hello"));
    });
    expect(await (await fetchWith(url)).text()).toBe("compressed hello");
  });

  it("follows a redirect and drops the credentials when the origin changes", async () => {
    const target = await serve((req, res) => res.end(`key=${req.headers["x-api-key"] ?? "none"} path=${req.url}`));
    const sameOrigin = await serve((req, res) => {
      if (req.url === "/old") {
        res.writeHead(307, { location: "/new" });
        res.end();
      } else res.end(`key=${req.headers["x-api-key"] ?? "none"} path=${req.url}`);
    });
    const crossOrigin = await serve((_req, res) => {
      res.writeHead(307, { location: `${target}/elsewhere` });
      res.end();
    });
    expect(await (await fetchWith(`${sameOrigin}/old`, { headers: { "x-api-key": "secret" } })).text()).toBe(
      "key=secret path=/new",
    );
    expect(await (await fetchWith(crossOrigin, { headers: { "x-api-key": "secret" } })).text()).toBe(
      "key=none path=/elsewhere",
    );
  });

  it("returns a null body for 204", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const response = await fetchWith(url, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("refuses protocols other than http and https", async () => {
    await expect(fetchWith("file:///etc/passwd")).rejects.toThrow(/unsupported protocol file:/);
  });
});

describe("providerFetch's response", () => {
  it("reads the body once, as text with a byte order mark dropped, or as JSON", async () => {
    const url = await serve((_req, res) => res.end('\ufeff{"a":1}'));
    const response = await providerFetch(url);
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/already been read/);
  });

  it("clones into two responses that each read the whole body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "x-id": "r-1" });
      res.write("one ");
      res.end("two");
    });
    const response = await providerFetch(url);
    const copy = response.clone();
    expect(copy.headers.get("x-id")).toBe("r-1");
    expect(await copy.text()).toBe("one two");
    expect(await response.text()).toBe("one two");
  });

  it("carries the SDKs' Headers: case-insensitive, repeated headers combined, cookies apart", async () => {
    const url = await serve((_req, res) => {
      res.setHeader("Set-Cookie", ["a=1", "b=2"]);
      res.setHeader("X-Many", ["x", "y"]);
      res.end();
    });
    const response = await providerFetch(url);
    expect(response.headers).toBeInstanceOf(SdkHeaders);
    expect(response.headers.get("x-MANY")).toBe("x, y");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(Object.prototype.toString.call(response)).toBe("[object Response]");
  });
});

// The provider SDKs read a streamed body with for-await, which providerFetch serves straight from
// Node's stream (no web ReadableStream in between, src/providers/response-body.ts): the same rules
// hold that way as through getReader().
describe("providerFetch's body, read with for-await as the SDKs read it", () => {
  const text = (chunk: Uint8Array) => new TextDecoder().decode(chunk);

  it("yields each chunk as it arrives, then ends; the body is then taken", async () => {
    let sendRest: () => void = () => {};
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("first\n");
      sendRest = () => res.end("second\n");
    });
    const body = (await providerFetch(url)).body!;
    expect(body.locked).toBe(false);
    const chunks = body[Symbol.asyncIterator]();
    expect(body.locked).toBe(true);
    const first = await chunks.next();
    expect(text(first.value as Uint8Array)).toBe("first\n");
    sendRest();
    let rest = "";
    for (let part = await chunks.next(); !part.done; part = await chunks.next()) rest += text(part.value);
    expect(rest).toBe("second\n");
    expect(() => body.getReader()).toThrow(/already being read/);
  });

  it("rejects the pending read with an AbortError when aborted while streaming", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write("partial");
    });
    const controller = new AbortController();
    const response = await providerFetch(url, { signal: controller.signal });
    const chunks = response.body![Symbol.asyncIterator]();
    await chunks.next();
    const next = chunks.next();
    controller.abort();
    await expect(next).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects when the server cuts the connection mid-body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: 1\n\n", () => res.socket?.destroy());
    });
    const response = await providerFetch(url);
    const read = async () => {
      for await (const _ of response.body!);
    };
    await expect(read()).rejects.toThrow(
      /fetch failed: (the connection closed before the response body ended|response body: aborted)/,
    );
  });

  it("closes the connection when the reader stops before the end", async () => {
    let closed!: Promise<unknown>;
    const url = await serve((_req, res) => {
      closed = once(res, "close");
      res.writeHead(200);
      res.write("one");
    });
    const response = await providerFetch(url);
    for await (const chunk of response.body!) {
      expect(text(chunk)).toBe("one");
      break;
    }
    await closed;
  });

  it("decompresses a gzip body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync("compressed hello"));
    });
    let all = "";
    for await (const chunk of (await providerFetch(url)).body!) all += text(chunk);
    expect(all).toBe("compressed hello");
  });
});
