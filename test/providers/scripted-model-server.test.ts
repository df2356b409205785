// The scripted model server is a test helper others build on; these pin down its own promises.
import { describe, expect, it } from "vitest";
import { httpFetch } from "../../src/providers/http-fetch.js";
import { httpError, reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return httpFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("scripted model server", () => {
  const server = scriptedModelServerFixture();

  it("records each request with protocol, headers, parsed body and timestamps", async () => {
    server.enqueue(reply().text("a"), reply().text("b"));
    const before = Date.now();
    await (await post(`${server.url}/v1/messages`, { model: "m1" }, { "x-api-key": "k1" })).text();
    await (await post(`${server.openaiBaseURL}/chat/completions`, { model: "m2" })).text();
    expect(server.requests.map((r) => [r.seq, r.protocol, r.path, (r.body as { model: string }).model])).toEqual([
      [1, "anthropic", "/v1/messages", "m1"],
      [2, "openai", "/v1/chat/completions", "m2"],
    ]);
    expect(server.requests[0]!.headers["x-api-key"]).toBe("k1");
    expect(server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(before);
    expect(server.requests[1]!.monotonicMs).toBeGreaterThanOrEqual(server.requests[0]!.monotonicMs);
  });

  it("answers an unscripted request with a 400 that names it, and an unknown route with a 404", async () => {
    const unscripted = await post(`${server.url}/v1/messages`, {});
    expect(unscripted.status).toBe(400);
    expect(await unscripted.text()).toContain("no reply queued for request #1 (POST /v1/messages)");
    const unknown = await post(`${server.url}/v1/embeddings`, {});
    expect(unknown.status).toBe(404);
  });

  it("sends scripted errors in each protocol's format, or a raw body, with retry headers", async () => {
    server.enqueue(
      httpError(529, { retryAfter: 3 }),
      httpError(429, { retryAfterMs: 20 }),
      httpError(502, { body: "<html>bad gateway</html>" }),
    );
    const anthropic = await post(`${server.url}/v1/messages`, {});
    expect(anthropic.status).toBe(529);
    expect(anthropic.headers.get("retry-after")).toBe("3");
    expect(await anthropic.json()).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "scripted error 529" },
    });
    const openai = await post(`${server.openaiBaseURL}/chat/completions`, {});
    expect(openai.headers.get("retry-after-ms")).toBe("20");
    expect(await openai.json()).toMatchObject({ error: { type: "rate_limit_error", message: "scripted error 429" } });
    const raw = await post(`${server.url}/v1/messages`, {});
    expect(await raw.text()).toBe("<html>bad gateway</html>");
  });

  it("streams Anthropic SSE events in order, ending with message_stop", async () => {
    server.enqueue(reply().text("hi").tool("Read", { a: 1 }, { id: "t1", chunks: 2 }));
    const text = await (await post(`${server.url}/v1/messages`, { model: "m" })).text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(names).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(text).toContain('"stop_reason":"tool_use"');
  });

  it("sends the OpenAI usage chunk only when the request asks for it, then [DONE]", async () => {
    server.enqueue(reply().text("x"), reply().text("y"));
    const withUsage = await (
      await post(`${server.openaiBaseURL}/chat/completions`, { stream_options: { include_usage: true } })
    ).text();
    const without = await (await post(`${server.openaiBaseURL}/chat/completions`, {})).text();
    expect(withUsage).toContain('"usage":{"prompt_tokens"');
    expect(without).not.toContain('"usage"');
    expect(withUsage.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  it("waits between events when asked (a lower bound, not a speed check)", async () => {
    server.enqueue(reply().text("abc", { chunks: 3 }).delay(40));
    const started = performance.now();
    await (await post(`${server.url}/v1/messages`, {})).text();
    // 9 events (start, ping, block start, 3 deltas, block stop, delta, stop): 8 gaps of 40 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(310);
  });

  it("waitForRequests resolves when the count is reached and rejects after its timeout", async () => {
    server.enqueue(reply().text("a"));
    const waiting = server.waitForRequests(1);
    await (await post(`${server.url}/v1/messages`, {})).text();
    await expect(waiting).resolves.toHaveLength(1);
    await expect(server.waitForRequests(2, 50)).rejects.toThrow(/expected 2 requests, got 1/);
  });
});
