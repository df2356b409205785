// The session's side queries against the real Anthropic adapter and a scripted server on
// 127.0.0.1, and against the replay provider: the small model is asked, a server that does not
// know it gets the session's model instead (once refused, from then on), usage and searches go
// into the ledger, and replay scripts answer from their "side" lines.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSideQuery } from "../../src/loop/side-query.js";
import { UsageLedger } from "../../src/models/cost.js";
import { modelInfoFor } from "../../src/models/resolve.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import {
  httpError,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";

let server: ScriptedModelServer;
let dir: string;

beforeAll(async () => {
  server = await startScriptedModelServer();
  dir = mkdtempSync(join(tmpdir(), "warden-side-query-"));
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (purpose = "WebFetch") => ({
  purpose,
  system: "Answer briefly.",
  prompt: "What is on the page?",
  signal: new AbortController().signal,
});

describe("side queries over the Anthropic adapter", () => {
  it("ask the small model, fall back to the session's model when the server does not know it, and count both", async () => {
    const ledger = new UsageLedger();
    const provider = createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" });
    const side = createSideQuery({
      provider,
      model: "claude-sonnet-4-6",
      modelInfo: modelInfoFor("anthropic", "claude-sonnet-4-6"),
      ledger,
    });
    expect(side.serverWebSearch).toBe(true);
    const before = server.requests.length;
    server.enqueue(
      reply().text("From Haiku.").usage({ input: 100, output: 5 }),
      httpError(404, { type: "not_found_error", message: "model: claude-haiku-4-5" }),
      reply().text("From Sonnet.").usage({ input: 100, output: 5 }),
      reply().text("Sonnet again.").usage({ input: 10, output: 2 }),
    );
    const first = await side.run(ask());
    expect(first).toMatchObject({ text: "From Haiku.", model: "claude-haiku-4-5" });
    const second = await side.run(ask());
    expect(second).toMatchObject({ text: "From Sonnet.", model: "claude-sonnet-4-6" });
    // Refused once: the session's model answers from then on, without trying the small one first.
    const third = await side.run(ask());
    expect(third.model).toBe("claude-sonnet-4-6");
    const models = server.requests.slice(before).map((r) => (r.body as { model: string }).model);
    expect(models).toEqual(["claude-haiku-4-5", "claude-haiku-4-5", "claude-sonnet-4-6", "claude-sonnet-4-6"]);
    const usage = ledger.modelUsage();
    expect(usage["claude-haiku-4-5"]?.inputTokens).toBe(100);
    expect(usage["claude-sonnet-4-6"]?.inputTokens).toBe(110);
  });

  it("prices each server-side search and counts it in the ledger", async () => {
    const ledger = new UsageLedger();
    const info = modelInfoFor("anthropic", "claude-sonnet-4-6");
    const side = createSideQuery({
      provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
      model: "claude-sonnet-4-6",
      modelInfo: info,
      ledger,
    });
    server.enqueue(
      reply()
        .serverToolUse("srv_1", "web_search", { query: "a" })
        .webSearchResult("srv_1", { error_code: "max_uses_exceeded" })
        .text("Nothing found.")
        .usage({ input: 0, output: 0, webSearchRequests: 2 }),
    );
    const result = await side.run({ ...ask("WebSearch"), model: "main", webSearch: { maxUses: 8 } });
    expect(result.searches).toEqual([{ query: "a", hits: [], errorCode: "max_uses_exceeded" }]);
    const entry = ledger.modelUsage()["claude-sonnet-4-6"]!;
    expect(entry.webSearchRequests).toBe(2);
    expect(entry.costUSD).toBeCloseTo(0.02, 6);
  });
});

describe("side queries over the replay provider", () => {
  it("take the script's side lines for their tool, in order, and say so when none is left", async () => {
    const script = join(dir, "side.jsonl");
    writeFileSync(
      script,
      [
        { content: [{ type: "text", text: "main turn" }] },
        { side: "WebFetch", content: [{ type: "text", text: "first page" }] },
        { side: "WebFetch", content: [{ type: "text", text: "second page" }] },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    );
    const provider = createReplayProvider(script, { cwd: dir });
    const side = createSideQuery({
      provider,
      model: script,
      modelInfo: modelInfoFor("replay", script),
      ledger: new UsageLedger(),
    });
    expect(side.serverWebSearch).toBe(false);
    expect((await side.run(ask())).text).toBe("first page");
    expect((await side.run(ask())).text).toBe("second page");
    await expect(side.run(ask())).rejects.toThrow(/no "side": "WebFetch" line left/);
    await expect(side.run(ask("WebSearch"))).rejects.toThrow(/"WebSearch"/);
  });

  it("refuse a line that names both an agent and a side query", () => {
    const script = join(dir, "both.jsonl");
    writeFileSync(script, JSON.stringify({ agent: "x", side: "WebFetch", content: [] }));
    expect(() => createReplayProvider(script, { cwd: dir })).toThrow(/not both/);
  });
});
