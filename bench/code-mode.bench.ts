// Issue 37's measure of code mode (REPL): the bytes a conversation sends the model and the number of
// model turns, for "read 8 files and report one line each" done with flat tool calls and with one
// REPL program, and the first request's size with 60 MCP tools (three real stdio servers) offered
// flat (deferred), or reachable only through REPL (`codeMode.mcpOnly`). Every tool result is
// produced by running the real tools (through runToolUse) on real files; the model's side (its
// tool calls and final answer) is scripted, the same in both runs. Requests are serialized by the
// Anthropic adapter; tokens are estimated as chars / 4.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RequestPrefixCache } from "../src/loop/request-prefix.js";
import { buildSystemPrompt } from "../src/loop/system-prompt.js";
import { parseServerConfig } from "../src/mcp/config.js";
import { McpClientManager } from "../src/mcp/manager.js";
import type { AssistantMessage, Message, ToolResultBlock, ToolUseBlock } from "../src/messages/types.js";
import { userText } from "../src/messages/types.js";
import { runToolUse } from "../src/orchestration/run-tool-use.js";
import { toAnthropicParams } from "../src/providers/anthropic-request.js";
import { createToolUseContext } from "../src/tool/context.js";
import { emptyPermissionContext } from "../src/tool/permission-types.js";
import { assembleToolPool } from "../src/tool/pool.js";
import type { AnyTool, CanUseTool, ToolUseContext } from "../src/tool/types.js";
import { builtInTools } from "../src/tools/registry.js";
import type { BenchRow } from "./run.js";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const tsxLoader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const manyTools = join(root, "test/fixtures/mcp-servers/many-tools-server.ts");
const TASK = "Read the 8 files in src/ and report their first line, one line each.";

/** Reads are allowed here as a session in the project allows them; nothing else is called. */
const allowAll: CanUseTool = async (_tool, input) => ({ behavior: "allow", updatedInput: input });

function contextFor(cwd: string, sessionDir: string, builtIn: AnyTool[], mcpTools: AnyTool[]): ToolUseContext {
  const tools = assembleToolPool(builtIn, mcpTools, emptyPermissionContext(cwd).rules);
  return createToolUseContext({
    options: {
      tools,
      model: "anthropic:claude-sonnet-4-5",
      cwd,
      sessionId: "bench",
      sessionDir,
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: emptyPermissionContext(cwd), toolSearchMode: "defer" },
  });
}

/** The bytes of one request body for this conversation so far. */
async function requestBytes(context: ToolUseContext, messages: Message[]): Promise<number> {
  const environment = {
    cwd: context.options.cwd,
    platform: "linux",
    date: "2026-01-01",
    gitRoot: context.options.cwd,
    model: "anthropic:claude-sonnet-4-5",
  };
  const prefix = await new RequestPrefixCache(async (split) =>
    buildSystemPrompt({ environment, memory: [] }, split),
  ).prefixFor(context);
  const params = toAnthropicParams({
    model: "claude-sonnet-4-5",
    system: prefix.system,
    messages,
    tools: prefix.tools,
    maxTokens: 32_000,
    signal: new AbortController().signal,
  });
  return Buffer.byteLength(JSON.stringify(params));
}

/**
 * Runs a scripted conversation: each turn's tool calls are run for real and their results join
 * the conversation; the last turn answers. Returns the bytes of every request summed and the turns.
 */
async function converse(
  context: ToolUseContext,
  turns: ToolUseBlock[][],
): Promise<{ bytes: number; turns: number; lastBytes: number }> {
  const messages: Message[] = [userText(TASK)];
  let bytes = 0;
  let lastBytes = 0;
  for (const calls of turns) {
    lastBytes = await requestBytes(context, messages);
    bytes += lastBytes;
    const assistant: AssistantMessage = { role: "assistant", content: calls, stopReason: "tool_use" };
    messages.push(assistant);
    const results: ToolResultBlock[] = [];
    for (const call of calls) results.push((await runToolUse(call, context, allowAll, assistant)).result);
    messages.push({ role: "user", content: results });
  }
  // The final turn: the model answers from what it has.
  lastBytes = await requestBytes(context, messages);
  bytes += lastBytes;
  return { bytes, turns: turns.length + 1, lastBytes };
}

async function eightFiles(): Promise<BenchRow[]> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "warden-code-mode-bench-")));
  const cwd = join(base, "project");
  const sessionDir = join(base, "session");
  await import("node:fs/promises").then((fs) =>
    Promise.all([fs.mkdir(join(cwd, "src"), { recursive: true }), fs.mkdir(sessionDir)]),
  );
  const files: string[] = [];
  for (let i = 1; i <= 8; i += 1) {
    const path = join(cwd, "src", `module${i}.ts`);
    // A small source file: ~60 lines, ~2 KB.
    const body = Array.from(
      { length: 60 },
      (_, n) => `export const value${n} = ${i * 100 + n}; // line ${n} of module ${i}`,
    ).join("\n");
    await writeFile(path, `// module ${i}: what it does\n${body}\n`);
    files.push(path);
  }
  try {
    // A context per conversation: Read remembers what it read and would answer a second read with a stub.
    const flat = () => contextFor(cwd, sessionDir, builtInTools(), []);
    const code = contextFor(cwd, sessionDir, builtInTools({ codeMode: {} }), []);
    const reads = files.map(
      (file_path, i): ToolUseBlock => ({ type: "tool_use", id: `toolu_read_${i}`, name: "Read", input: { file_path } }),
    );
    const parallel = await converse(flat(), [reads]);
    const oneByOne = await converse(
      flat(),
      reads.map((read) => [read]),
    );
    const program = `for (const f of ${JSON.stringify(files)}) {
  const text = await Read({ file_path: f, limit: 1 });
  print(f.split("/").pop() + ": " + text.split("\\n")[0].replace(/^\\s*\\d+\\s*[→\\t]/, ""));
}`;
    const repl = await converse(code, [
      [{ type: "tool_use", id: "toolu_repl", name: "REPL", input: { code: program } }],
    ]);
    const tokens = (bytes: number) => `~${Math.round(bytes / 4)} tokens`;
    return [
      {
        name: "8 files, flat Read calls in one turn: request bytes",
        value: parallel.bytes,
        unit: "bytes",
        note: `${parallel.turns} model turns; last request ${parallel.lastBytes} B, ${tokens(parallel.lastBytes)}`,
      },
      {
        name: "8 files, one Read per turn: request bytes",
        value: oneByOne.bytes,
        unit: "bytes",
        note: `${oneByOne.turns} model turns; last request ${oneByOne.lastBytes} B`,
      },
      {
        name: "8 files, one REPL program: request bytes",
        value: repl.bytes,
        unit: "bytes",
        note: `${repl.turns} model turns; last request ${repl.lastBytes} B, ${tokens(repl.lastBytes)}`,
      },
      {
        name: "  REPL saves on the answering request",
        value: parallel.lastBytes - repl.lastBytes,
        unit: "bytes",
        note: "the files' contents never enter the conversation",
      },
    ];
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

async function sixtyMcpTools(): Promise<BenchRow[]> {
  const entries = ["github", "slack", "linear"].map((server) =>
    parseServerConfig(
      server,
      { command: process.execPath, args: ["--import", tsxLoader, manyTools, server] },
      "cli",
      "bench",
    ),
  );
  const manager = new McpClientManager(entries, { cwd: root });
  await manager.connectAll();
  try {
    const mcpTools = manager.tools().filter((t) => t.mcpInfo);
    if (mcpTools.length !== 60) throw new Error(`expected 60 MCP tools, got ${mcpTools.length}`);
    const cwd = "/home/user/project";
    const messages: Message[] = [userText("Open an issue in github for the failing test.")];
    const core = await requestBytes(contextFor(cwd, "/tmp/bench", builtInTools(), []), messages);
    const deferred = await requestBytes(contextFor(cwd, "/tmp/bench", builtInTools(), mcpTools), messages);
    const codeOnly = await requestBytes(
      contextFor(cwd, "/tmp/bench", builtInTools({ codeMode: { codeOnlyTools: () => mcpTools } }), []),
      messages,
    );
    const codeCore = await requestBytes(contextFor(cwd, "/tmp/bench", builtInTools({ codeMode: {} }), []), messages);
    return [
      { name: "60 MCP tools deferred (flat): added to first request", value: deferred - core, unit: "bytes" },
      {
        name: "60 MCP tools only through REPL: added to first request",
        value: codeOnly - codeCore,
        unit: "bytes",
        note: "their names, grouped by server, in REPL's prompt",
      },
      { name: "REPL itself: added to first request", value: codeCore - core, unit: "bytes" },
    ];
  } finally {
    await manager.close();
  }
}

export default async function codeModeBench(): Promise<BenchRow[]> {
  return [...(await eightFiles()), ...(await sixtyMcpTools())];
}
