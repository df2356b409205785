// What a compaction puts back must leave the session room to work, whatever the model's window. A
// session on a local model's 32k window (the default Warden assumes for ollama, llama.cpp, vLLM,
// LM Studio) reads one source file per turn, with the real Read tool on real files, over the real
// Anthropic provider against the scripted model server (which reports JSON characters / 4 as the
// input tokens of each request). The thresholds are the ones the window gives, not set by hand.
// Before the restored state was sized to the window, up to 20,000 tokens of recently read files
// came back after every compaction: the next read or two passed the threshold again.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextThresholds } from "../../src/context/thresholds.js";
import { createSession } from "../../src/loop/session.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import type { AnyTool } from "../../src/tool/types.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import {
  type RecordedRequest,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { allowAll, collect, tempDir } from "../loop/helpers.js";

const LIMITS = { contextWindow: 32_768, maxOutputTokens: 8_192 };
const READS = 24;
/** Each file is about 2,500 tokens: a mid-sized source file. */
const FILE_CHARS = 10_000;
/** The model's note on each file: about 1,000 tokens. */
const NOTE_WORDS = 330;

let server: ScriptedModelServer;
const savedHome = process.env.WARDEN_HOME;
beforeAll(async () => {
  server = await startScriptedModelServer();
  process.env.WARDEN_HOME = tempDir("warden-restore-home-");
});
afterAll(async () => {
  await server.close();
  if (savedHome === undefined) delete process.env.WARDEN_HOME;
  else process.env.WARDEN_HOME = savedHome;
});

const tokensOf = (request: RecordedRequest) => Math.ceil(JSON.stringify(request.body).length / 4);
const messagesText = (request: RecordedRequest) => JSON.stringify((request.body as { messages: unknown }).messages);
const isSummaryRequest = (request: RecordedRequest) =>
  messagesText(request).includes("Your context window is nearly full");

function sourceFile(n: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < FILE_CHARS; i++) {
    lines.push(`export const value_${n}_${i} = compute(${i}, "module ${n} keeps its own line ${i}");`);
  }
  return `${lines.join("\n").slice(0, FILE_CHARS)}\n`;
}

describe("after a compaction on a small window", () => {
  it("a session reading file after file compacts every few reads, not after nearly every one", async () => {
    const cwd = tempDir("warden-restore-");
    mkdirSync(join(cwd, "src"));
    for (let n = 1; n <= READS; n++) writeFileSync(join(cwd, "src", `module${n}.ts`), sourceFile(n));

    let turn = 0;
    server.respondWith((request) => {
      const input = tokensOf(request);
      if (isSummaryRequest(request)) {
        return reply()
          .text(`Summary: the user wants every module read; modules 1 to ${turn} were read, nothing changed.`)
          .usage({ input, output: 40 });
      }
      turn++;
      if (turn > READS) return reply().text("Every module read.").usage({ input, output: 5 });
      // The model's own notes grow the conversation (old Read results alone are cleared by
      // microcompact): only a compaction removes them.
      const note = `Notes on module ${turn - 1}: ${"observation ".repeat(NOTE_WORDS)}`;
      return reply()
        .text(note)
        .tool("Read", { file_path: join(cwd, "src", `module${turn}.ts`) })
        .usage({ input, output: Math.ceil(note.length / 4) });
    });

    const session = createSession({
      provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
      model: "claude-test",
      tools: [ReadTool as AnyTool],
      canUseTool: allowAll,
      cwd,
      transcript: false,
      loadMemory: false,
      modelInfo: LIMITS,
    });
    const { terminal, events } = await collect(session.submitMessage("Read every module in src/, one by one."));
    const requests = [...server.requests];
    server.respondWith(undefined);
    expect(terminal.reason).toBe("completed");

    const threshold = contextThresholds({ ...LIMITS }).autoCompactAt;
    const boundaries = events.filter((e) => e.type === "compact_boundary");
    expect(boundaries.length).toBeGreaterThan(0);

    // Reads between two compactions (the model's requests, summary requests left out).
    const readsBetween: number[] = [];
    let reads = 0;
    for (const request of requests) {
      if (isSummaryRequest(request)) {
        readsBetween.push(reads);
        reads = 0;
      } else {
        reads++;
      }
    }
    // The first stretch fills the window from empty; every later one starts from what was put back.
    for (const count of readsBetween.slice(1))
      expect(count, `reads between compactions: ${readsBetween}`).toBeGreaterThanOrEqual(3);
    expect(boundaries.length).toBeLessThanOrEqual(Math.ceil(READS / 3));
    // What a compaction leaves is well under the threshold: room for the work that follows.
    for (const boundary of boundaries) {
      if (boundary.type !== "compact_boundary") continue;
      expect(boundary.postTokens).toBeLessThan(threshold / 2);
    }
    // And the files read last still come back, as many as fit: the model keeps its bearings.
    const afterFirst = requests[requests.findIndex(isSummaryRequest) + 1] as RecordedRequest;
    expect(messagesText(afterFirst)).toContain("Files you read most recently");
  }, 120_000);
});
