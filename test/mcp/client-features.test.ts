// What MCP servers may ask of a Warden session besides tools, against a real server on the official
// SDK (test/fixtures/mcp-servers/asking-server.ts): questions answered by the library callback or
// declined, completions from the session's model only when approved, roots, and log levels.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderSampler } from "../../src/mcp/client-features/index.js";
import type { McpClientFeatures, ServerLogMessage } from "../../src/mcp/client-features/types.js";
import { McpClientManager } from "../../src/mcp/manager.js";
import type { Usage } from "../../src/messages/types.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { entry, stdioServerConfig } from "./fixtures.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-mcp-client-features-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function withServer<T>(features: McpClientFeatures, use: (manager: McpClientManager) => Promise<T>): Promise<T> {
  const manager = new McpClientManager([entry("asking", stdioServerConfig("asking-server.ts"))], {
    cwd: dir,
    features,
  });
  try {
    await manager.connectAll();
    expect(manager.statuses()[0]?.state).toBe("connected");
    return await use(manager);
  } finally {
    await manager.close();
  }
}

async function call(manager: McpClientManager, tool: string): Promise<CallToolResult> {
  const connection = manager.connection("asking");
  if (!connection) throw new Error("no connection");
  return connection.callTool(tool, {});
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("elicitation", () => {
  it("sends the callback's accepted answer, with the form's defaults filled in", async () => {
    const asked: string[] = [];
    const answer = await withServer(
      {
        onElicitation: async (request) => {
          asked.push(`${request.server}: ${request.params.message}`);
          return { action: "accept", content: { name: "Ada" } };
        },
      },
      (manager) => call(manager, "ask_name"),
    );
    expect(asked).toEqual(["asking: What is your name?"]);
    expect(JSON.parse(textOf(answer))).toEqual({ action: "accept", content: { name: "Ada", language: "en" } });
  }, 30_000);

  it("never sends an answer that does not match the form: it declines and says why", async () => {
    const warnings: string[] = [];
    const answer = await withServer(
      {
        onElicitation: async () => ({ action: "accept", content: { language: "de" } }),
        warn: (m) => void warnings.push(m),
      },
      (manager) => call(manager, "ask_name"),
    );
    expect(JSON.parse(textOf(answer))).toEqual({ action: "decline" });
    expect(warnings.join("\n")).toMatch(/did not match the form/);
  }, 30_000);

  it("declines with a warning naming the server and the question when nobody can answer", async () => {
    const warnings: string[] = [];
    const answer = await withServer({ warn: (m) => void warnings.push(m) }, (manager) => call(manager, "ask_name"));
    expect(JSON.parse(textOf(answer))).toEqual({ action: "decline" });
    expect(warnings).toEqual([
      'MCP server "asking" asked: What is your name?; declined: nobody can answer in this session',
    ]);
  }, 30_000);

  it("passes on the user's cancel", async () => {
    const answer = await withServer({ onElicitation: async () => ({ action: "cancel" }) }, (m) => call(m, "ask_name"));
    expect(JSON.parse(textOf(answer))).toEqual({ action: "cancel" });
  }, 30_000);
});

describe("sampling", () => {
  async function replaySampler(): Promise<{ sampler: McpClientFeatures["sampler"]; usages: Usage[] }> {
    const script = join(dir, `sampling-${Math.random().toString(36).slice(2)}.jsonl`);
    await writeFile(
      script,
      `${JSON.stringify({
        content: [{ type: "text", text: "Green build." }],
        usage: { input_tokens: 12, output_tokens: 3 },
      })}\n`,
    );
    const usages: Usage[] = [];
    const sampler = createProviderSampler({
      provider: createReplayProvider(script, { cwd: dir }),
      model: "scripted",
      recordUsage: (u) => void usages.push(u),
    });
    return { sampler, usages };
  }

  it("runs on the session's model for a server the settings name, and counts the tokens", async () => {
    const { sampler, usages } = await replaySampler();
    const result = await withServer({ sampler, samplingAllowedServers: ["asking"] }, (m) => call(m, "summarize"));
    expect(JSON.parse(textOf(result))).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "Green build." },
      model: "scripted",
      stopReason: "endTurn",
    });
    expect(usages).toEqual([expect.objectContaining({ input_tokens: 12, output_tokens: 3 })]);
  }, 30_000);

  it("asks the user, showing the request, and refuses when they decline", async () => {
    const { sampler, usages } = await replaySampler();
    const shown: string[] = [];
    const result = await withServer(
      {
        sampler,
        approveSampling: async (request) => {
          shown.push(JSON.stringify(request.params.messages));
          return false;
        },
      },
      (m) => call(m, "summarize"),
    );
    expect(shown.join("")).toContain("Summarize: the build is green.");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/sampling request refused: the user declined it/);
    expect(usages).toEqual([]);
  }, 30_000);

  it("refuses headless when no setting names the server", async () => {
    const { sampler } = await replaySampler();
    const warnings: string[] = [];
    const result = await withServer({ sampler, warn: (m) => void warnings.push(m) }, (m) => call(m, "summarize"));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/mcpSamplingServers/);
    expect(warnings.join("\n")).toMatch(/"asking" asked for a completion/);
  }, 30_000);

  it("is not offered at all without a sampler", async () => {
    const result = await withServer({}, (m) => call(m, "summarize"));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/sampling failed/i);
  }, 30_000);
});

describe("roots and logging", () => {
  it("offers the working directories as roots and tells the server when they change", async () => {
    const folders = [dir];
    await withServer({ roots: () => folders }, async (manager) => {
      const first = JSON.parse(textOf(await call(manager, "roots")));
      expect(first).toEqual({ roots: [{ uri: pathToFileURL(dir).href, name: expect.any(String) }], changes: 0 });
      folders.push(join(dir, "worktree"));
      await manager.rootsChanged();
      await expect
        .poll(async () => JSON.parse(textOf(await call(manager, "roots"))).changes as number)
        .toBeGreaterThanOrEqual(1);
      const second = JSON.parse(textOf(await call(manager, "roots")));
      expect(second.roots.map((r: { uri: string }) => r.uri)).toEqual([
        pathToFileURL(dir).href,
        pathToFileURL(join(dir, "worktree")).href,
      ]);
    });
  }, 30_000);

  it("receives the server's log messages at the configured level and above only", async () => {
    const logs: ServerLogMessage[] = [];
    await withServer({ logLevel: "error", onServerLog: (m) => void logs.push(m) }, async (manager) => {
      await call(manager, "log_twice");
      await expect.poll(() => logs.length).toBeGreaterThanOrEqual(1);
    });
    expect(logs).toEqual([{ server: "asking", level: "error", logger: "asking", data: "a failure" }]);
  }, 30_000);
});
