// Issue 7's benchmark: the size of the first model request, as the Anthropic adapter serializes
// it, with the built-in core tools alone and with 60 MCP tools from three real MCP servers
// (child processes over stdio), deferred (names in the system prompt, ToolSearch sent) against not
// deferred (every schema sent). Tokens are estimated as chars / 4.
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RequestPrefixCache } from "../src/loop/request-prefix.js";
import { buildSystemPrompt } from "../src/loop/system-prompt.js";
import { parseServerConfig } from "../src/mcp/config.js";
import { McpClientManager } from "../src/mcp/manager.js";
import { userText } from "../src/messages/types.js";
import { toAnthropicParams } from "../src/providers/anthropic-request.js";
import { createToolUseContext } from "../src/tool/context.js";
import { emptyPermissionContext } from "../src/tool/permission-types.js";
import { assembleToolPool } from "../src/tool/pool.js";
import type { ToolSearchMode } from "../src/tool/tool-search-mode.js";
import type { AnyTool } from "../src/tool/types.js";
import { builtInTools } from "../src/tools/registry.js";
import { searchTools } from "../src/tools/tool-search/scoring.js";
import type { BenchRow } from "./run.js";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const tsxLoader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const manyTools = join(root, "test/fixtures/mcp-servers/many-tools-server.ts");
const CWD = "/home/user/project";

/** The bytes of the first request body the Anthropic adapter would send for this pool and mode. */
async function firstRequestBytes(
  builtIn: AnyTool[],
  mcpTools: AnyTool[],
  mode: ToolSearchMode,
): Promise<{ bytes: number; tools: number; toolSearchBytes: number }> {
  const tools = assembleToolPool(builtIn, mcpTools, emptyPermissionContext(CWD).rules);
  const context = createToolUseContext({
    options: {
      tools,
      model: "anthropic:claude-sonnet-4-5",
      cwd: CWD,
      sessionId: "bench",
      sessionDir: "/tmp/bench",
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: emptyPermissionContext(CWD), toolSearchMode: mode },
  });
  const environment = {
    cwd: CWD,
    platform: "linux",
    date: "2026-01-01",
    gitRoot: CWD,
    model: "anthropic:claude-sonnet-4-5",
  };
  const prefix = await new RequestPrefixCache(async (split) =>
    buildSystemPrompt({ environment, memory: [] }, split),
  ).prefixFor(context);
  const params = toAnthropicParams({
    model: "claude-sonnet-4-5",
    system: prefix.system,
    messages: [userText("The test in test/app.test.ts fails since yesterday; find out why and fix it.")],
    tools: prefix.tools,
    maxTokens: 32_000,
    signal: new AbortController().signal,
  });
  const toolSearch = params.tools?.find((t) => "name" in t && t.name === "ToolSearch");
  return {
    bytes: Buffer.byteLength(JSON.stringify(params)),
    tools: prefix.tools.length,
    toolSearchBytes: toolSearch ? Buffer.byteLength(JSON.stringify(toolSearch)) : 0,
  };
}

const tokens = (bytes: number) => Math.round(bytes / 4);

export default async function mcpBench(): Promise<BenchRow[]> {
  // The pool an Anthropic session gets: WebSearch joins, since the provider searches by itself.
  const builtIn = builtInTools({ webSearch: { serverSide: true } });
  const entries = ["github", "slack", "linear"].map((server) =>
    parseServerConfig(
      server,
      { command: process.execPath, args: ["--import", tsxLoader, manyTools, server] },
      "cli",
      "bench",
    ),
  );
  const manager = new McpClientManager(entries, { cwd: root });
  const connectStart = performance.now();
  await manager.connectAll();
  const connectMs = performance.now() - connectStart;
  try {
    const mcpTools = manager.tools().filter((t) => t.mcpInfo);
    if (mcpTools.length !== 60)
      throw new Error(`expected 60 MCP tools, got ${mcpTools.length}: ${JSON.stringify(manager.statuses())}`);
    // Core alone, in the default mode: built-ins that defer themselves are named, not sent.
    const core = await firstRequestBytes(builtIn, [], "defer");
    const deferred = await firstRequestBytes(builtIn, mcpTools, "defer");
    const eager = await firstRequestBytes(builtIn, mcpTools, "never");

    const searchable = mcpTools.map((t) => ({ name: t.name, description: t.staticDescription ?? "", isMcp: true }));
    const rounds = 2000;
    const searchStart = performance.now();
    for (let i = 0; i < rounds; i++) searchTools(searchable, "create issue +github", 5);
    const searchMs = (performance.now() - searchStart) / rounds;

    return [
      {
        name: "first request, built-in core tools",
        value: core.bytes,
        unit: "bytes",
        target: "<= 20480",
        note: `~${tokens(core.bytes)} tokens, ${core.tools} schemas`,
      },
      {
        name: "first request, + 60 MCP tools deferred",
        value: deferred.bytes,
        unit: "bytes",
        note: `~${tokens(deferred.bytes)} tokens, ${deferred.tools} schemas`,
      },
      {
        name: "  added by 60 deferred MCP tools",
        value: deferred.bytes - core.bytes,
        unit: "bytes",
        target: "<= 1536",
        note: `~${tokens(deferred.bytes - core.bytes)} tokens${core.toolSearchBytes > 0 ? " (ToolSearch already in core: a built-in defers)" : ""}`,
      },
      {
        name: "ToolSearch's own schema",
        value: deferred.toolSearchBytes,
        unit: "bytes",
        note: "in the request whenever anything is deferred",
      },
      {
        name: "first request, + 60 MCP tools not deferred",
        value: eager.bytes,
        unit: "bytes",
        note: `~${tokens(eager.bytes)} tokens, ${eager.tools} schemas`,
      },
      {
        name: "  added by 60 MCP tools not deferred",
        value: eager.bytes - core.bytes,
        unit: "bytes",
        note: `~${tokens(eager.bytes - core.bytes)} tokens`,
      },
      {
        name: "connect 3 stdio MCP servers in parallel",
        value: connectMs,
        unit: "ms",
        note: "tsx-run fixture servers, machine load included",
      },
      { name: "ToolSearch keyword query over 60 tools", value: searchMs, unit: "ms" },
    ];
  } finally {
    await manager.close();
  }
}
