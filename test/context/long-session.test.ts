// A session of three hundred turns with large tool results on a model with a small window, run
// over the real Anthropic provider against a scripted model server that counts the tokens of each
// request it receives (JSON characters / 4) and reports them as usage. The session must keep
// going far past the window, with each strategy firing at its threshold, as seen in the requests
// the server received: microcompact (old results become stubs), snip (old messages leave the
// request), autocompaction (a summary request, then a conversation that starts from the summary);
// and between two of those, every request starts with the bytes of the one before it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSession } from "../../src/loop/session.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { buildTool } from "../../src/tool/build-tool.js";
import type { AnyTool } from "../../src/tool/types.js";
import {
  type RecordedRequest,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { allowAll, collect, tempDir } from "../loop/helpers.js";

const WINDOW = 40_000;
const AUTO_COMPACT_AT = 30_000;
const MICROCOMPACT_AT = 18_000;
const MICROCOMPACT_TARGET = 12_000;
const SNIP_AFTER = 160;
const SNIP_KEEP = 80;
const RESULT_CHARS = 6_000;
const PHASE_ONE_TURNS = 100;
const TURNS = 300;

let server: ScriptedModelServer;
const savedHome = process.env.WARDEN_HOME;
beforeAll(async () => {
  server = await startScriptedModelServer();
  process.env.WARDEN_HOME = tempDir("warden-long-home-");
});
afterAll(async () => {
  await server.close();
  if (savedHome === undefined) delete process.env.WARDEN_HOME;
  else process.env.WARDEN_HOME = savedHome;
});

/** A read-only tool whose every result is RESULT_CHARS of distinct lines. */
const FetchTool = buildTool({
  name: "Fetch",
  inputSchema: z.object({ n: z.number() }),
  maxResultSizeChars: 100_000,
  async prompt() {
    return "Fetches page n of a long report.";
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call({ n }) {
    const lines: string[] = [];
    for (let i = 0; lines.join("\n").length < RESULT_CHARS; i++)
      lines.push(`page ${n} line ${i}: ${"data ".repeat(12)}`);
    return { data: lines.join("\n").slice(0, RESULT_CHARS) };
  },
}) as AnyTool;

interface Body {
  system?: Array<{ text: string }>;
  messages: Array<{ role: string; content: Array<Record<string, unknown>> | string }>;
}

const bodyOf = (request: RecordedRequest) => request.body as Body;
/** The server's count of a request: what it reports as input tokens. */
const tokensOf = (request: RecordedRequest) => Math.ceil(JSON.stringify(request.body).length / 4);
const textOf = (request: RecordedRequest) => JSON.stringify(bodyOf(request).messages);
const isSummaryRequest = (request: RecordedRequest) => textOf(request).includes("Your context window is nearly full");
const stubCount = (request: RecordedRequest) =>
  textOf(request).split("[Old tool result cleared to save context:").length - 1;
const snippedCount = (request: RecordedRequest): number => {
  const match = /\[Earlier conversation snipped: (\d+) messages/.exec(textOf(request));
  return match ? Number(match[1]) : 0;
};
const startsFromSummary = (request: RecordedRequest) =>
  JSON.stringify(bodyOf(request).messages[0]).includes("This session continues an earlier conversation");

/** The messages without the cache breakpoint, which moves to the newest message on every request. */
function messagesWithoutCacheMarkers(request: RecordedRequest): string {
  return JSON.stringify(bodyOf(request).messages, (key, value) => (key === "cache_control" ? undefined : value));
}

describe("a long session on a small window", () => {
  it("keeps going past the window, each strategy firing at its threshold, the prefix stable in between", async () => {
    let turn = 0;
    let summaries = 0;
    server.respondWith((request) => {
      const input = tokensOf(request);
      if (isSummaryRequest(request)) {
        summaries++;
        return reply()
          .text(`Summary ${summaries}: the user asked for every page of the report; pages up to ${turn} were fetched.`)
          .usage({ input, output: 40 });
      }
      turn++;
      if (turn > TURNS) return reply().text("All pages read.").usage({ input, output: 5 });
      // Phase two: the model also writes a long note each turn, which no strategy but a summary removes.
      const note = turn > PHASE_ONE_TURNS ? `Notes on page ${turn}: ${"observation ".repeat(250)}` : `Page ${turn}.`;
      return reply()
        .text(note)
        .tool("Fetch", { n: turn })
        .usage({ input, output: Math.ceil(note.length / 4) + 20 });
    });

    const session = createSession({
      provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
      model: "claude-test",
      tools: [FetchTool],
      canUseTool: allowAll,
      cwd: tempDir("warden-long-"),
      transcript: false,
      loadMemory: false,
      modelInfo: { contextWindow: WINDOW, maxOutputTokens: 4_000 },
      contextManagement: {
        autoCompactAt: AUTO_COMPACT_AT,
        microcompactAt: MICROCOMPACT_AT,
        microcompactTarget: MICROCOMPACT_TARGET,
        snipAfterMessages: SNIP_AFTER,
        snipKeepMessages: SNIP_KEEP,
      },
    });
    const { terminal, events } = await collect(session.submitMessage("Read every page of the report."));
    server.respondWith(undefined);
    expect(terminal.reason).toBe("completed");
    expect(terminal.turnCount).toBe(TURNS + 1);

    const all = server.requests;
    const normal = all.filter((r) => !isSummaryRequest(r));
    const summaryRequests = all.filter(isSummaryRequest);
    expect(normal).toHaveLength(TURNS + 1);
    // Far more than the window went through the session, and no request ever exceeded it.
    const sent = normal.reduce((sum, r) => sum + tokensOf(r), 0);
    expect(sent).toBeGreaterThan(20 * WINDOW);
    for (const request of all) expect(tokensOf(request)).toBeLessThan(WINDOW);

    // Microcompact: nothing cleared while the requests stayed under its threshold; the request
    // that first carries stubs came after one whose size plus one more result crossed it.
    const firstStubbed = normal.findIndex((r) => stubCount(r) > 0);
    expect(firstStubbed).toBeGreaterThan(0);
    const beforeStubs = normal[firstStubbed - 1] as RecordedRequest;
    for (const request of normal.slice(0, firstStubbed)) expect(tokensOf(request)).toBeLessThanOrEqual(MICROCOMPACT_AT);
    expect(tokensOf(beforeStubs) + RESULT_CHARS / 4).toBeGreaterThan(MICROCOMPACT_AT);
    // ...and brought the request down to about its target (the newest three turns are never cleared).
    expect(tokensOf(normal[firstStubbed] as RecordedRequest)).toBeLessThanOrEqual(MICROCOMPACT_TARGET + 1_000);

    // Snip: the first request without its oldest messages is the first whose conversation passed
    // SNIP_AFTER messages; the one before had not.
    const firstSnipped = normal.findIndex((r) => snippedCount(r) > 0);
    expect(firstSnipped).toBeGreaterThan(firstStubbed);
    const snippedRequest = normal[firstSnipped] as RecordedRequest;
    const unsnipped = bodyOf(snippedRequest).messages.length + snippedCount(snippedRequest);
    expect(unsnipped).toBeGreaterThan(SNIP_AFTER);
    expect(unsnipped).toBeLessThanOrEqual(SNIP_AFTER + 2);
    expect(bodyOf(normal[firstSnipped - 1] as RecordedRequest).messages.length).toBeLessThanOrEqual(SNIP_AFTER);
    expect(bodyOf(snippedRequest).messages.length).toBeLessThanOrEqual(SNIP_KEEP + 2);

    // Autocompaction: several summaries; each asked for right after a request that had come close
    // to the threshold without passing it, and followed by a request that starts from the summary.
    expect(summaryRequests.length).toBeGreaterThanOrEqual(3);
    const boundaries = events.filter((e) => e.type === "compact_boundary");
    expect(boundaries).toHaveLength(summaryRequests.length);
    for (const summaryRequest of summaryRequests) {
      const at = all.indexOf(summaryRequest);
      const before = all[at - 1] as RecordedRequest;
      const after = all[at + 1] as RecordedRequest;
      expect(isSummaryRequest(before)).toBe(false);
      expect(tokensOf(before)).toBeLessThanOrEqual(AUTO_COMPACT_AT);
      expect(tokensOf(before)).toBeGreaterThan(AUTO_COMPACT_AT - 6_000);
      expect(startsFromSummary(after)).toBe(true);
      expect(tokensOf(after)).toBeLessThan(AUTO_COMPACT_AT / 2);
      // The summary request reuses the session's system prompt (the provider's cache of it).
      expect(bodyOf(summaryRequest).system).toEqual(bodyOf(before).system);
    }
    for (const boundary of boundaries) {
      if (boundary.type !== "compact_boundary") continue;
      expect(boundary.trigger).toBe("auto");
      expect(boundary.preTokens).toBeGreaterThan(AUTO_COMPACT_AT);
      expect(boundary.postTokens).toBeLessThan(AUTO_COMPACT_AT / 2);
    }
    // The session's history is the last compaction's, not three hundred turns.
    expect(session.messages.length).toBeLessThan(2 * SNIP_AFTER);

    // Between two firings, every request starts with the bytes of the one before it.
    let stablePairs = 0;
    for (let i = 1; i < all.length; i++) {
      const previous = all[i - 1] as RecordedRequest;
      const current = all[i] as RecordedRequest;
      if (isSummaryRequest(previous) || isSummaryRequest(current)) continue;
      if (stubCount(current) !== stubCount(previous) || snippedCount(current) !== snippedCount(previous)) continue;
      const before = messagesWithoutCacheMarkers(previous).slice(0, -1);
      expect(messagesWithoutCacheMarkers(current).startsWith(`${before},`), `request ${current.seq}`).toBe(true);
      stablePairs++;
    }
    expect(stablePairs).toBeGreaterThan(TURNS / 3);
  }, 120_000);
});
