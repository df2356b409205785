// MCP tools have no opinion of their own (passthrough): the session's rules decide, by server
// (`mcp__demo`) or by tool (`mcp__demo__delete_everything`), through the real permission engine.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClientManager } from "../../src/mcp/manager.js";
import { runToolUse } from "../../src/orchestration/run-tool-use.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import { buildPermissionContext } from "../../src/permissions/settings/index.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { assembleToolPool } from "../../src/tool/pool.js";
import { BUILT_CLI, entry, REPO_ROOT, stdioServerConfig } from "./fixtures.js";

let manager: McpClientManager;
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "warden-mcp-perm-"));
  manager = new McpClientManager([entry("demo", stdioServerConfig("demo-server.ts"))], { cwd: REPO_ROOT });
  await manager.connectAll();
});
afterAll(async () => {
  await manager.close();
  await rm(home, { recursive: true, force: true });
});

async function decide(toolName: string, allowedTools: string[], disallowedTools: string[]) {
  const permissionContext = buildPermissionContext({
    cwd: REPO_ROOT,
    settings: { files: [], warnings: [] },
    cli: { allowedTools, disallowedTools },
  }).context;
  const tools = assembleToolPool([], manager.tools(), permissionContext.rules);
  const context = createToolUseContext({
    options: { tools, model: "t", cwd: REPO_ROOT, sessionId: "s", sessionDir: home, isNonInteractive: true },
    appState: { toolPermissionContext: permissionContext },
  });
  const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler(), persistUpdate: () => {} });
  const outcome = await runToolUse(
    { type: "tool_use", id: "toolu_p", name: toolName, input: {} },
    context,
    canUseTool,
    undefined,
  );
  return {
    inPool: tools.some((t) => t.name === toolName),
    result: outcome.result,
    denied: outcome.denial !== undefined,
  };
}

describe("rules decide for MCP tools", () => {
  it.each([
    ["no rule: asks, and headless denies", "mcp__demo__delete_everything", [], [], { inPool: true, denied: true }],
    [
      "a server rule allows every tool of the server",
      "mcp__demo__delete_everything",
      ["mcp__demo"],
      [],
      { inPool: true, denied: false },
    ],
    [
      "a tool rule allows that tool",
      "mcp__demo__delete_everything",
      ["mcp__demo__delete_everything"],
      [],
      { inPool: true, denied: false },
    ],
    [
      "a tool rule does not allow its siblings",
      "mcp__demo__whoami",
      ["mcp__demo__delete_everything"],
      [],
      { inPool: true, denied: true },
    ],
    [
      "a tool deny beats a server allow",
      "mcp__demo__delete_everything",
      ["mcp__demo"],
      ["mcp__demo__delete_everything"],
      { inPool: false, denied: true },
    ],
    [
      "a server deny removes its tools from the pool",
      "mcp__demo__whoami",
      [],
      ["mcp__demo"],
      { inPool: false, denied: false },
    ],
  ])("%s", async (_label, tool, allow, deny, expected) => {
    const outcome = await decide(tool, allow, deny);
    expect(outcome.inPool).toBe(expected.inPool);
    if (!expected.inPool) {
      // Not offered at all: a call to it is an unknown tool, never run.
      expect(outcome.result.is_error).toBe(true);
      return;
    }
    expect(outcome.denied).toBe(expected.denied);
    expect(outcome.result.is_error === true).toBe(expected.denied);
  });
});

describe("warden mcp list", () => {
  it("shows each server with its state, transport and tool count", () => {
    const config = JSON.stringify({
      mcpServers: { demo: stdioServerConfig("demo-server.ts"), gone: { command: "/nonexistent/server" } },
    });
    const run = spawnSync(process.execPath, [BUILT_CLI, "mcp", "list", "--mcp-config", config], {
      encoding: "utf8",
      cwd: home,
      env: {
        ...process.env,
        HOME: home,
        WARDEN_HOME: join(home, ".warden"),
        WARDEN_MANAGED_SETTINGS: join(home, "none.json"),
      },
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^demo\s+stdio\s+connected\s+12 tools/m);
    expect(run.stdout).toMatch(/^gone\s+stdio\s+failed\s+-/m);
    expect(run.stdout).toMatch(/ENOENT/);
  });
});

describe("warden mcp usage errors", () => {
  it.each([
    [["mcp"], /Usage:/],
    [["mcp", "frob"], /unknown subcommand "frob"/],
    [["mcp", "serve", "--port", "abc"], /--port must be 0-65535, not abc/],
    [["mcp", "list", "--bogus"], /Unknown option '--bogus'/],
    [["mcp", "list", "--mcp-config", "{not json"], /bad --mcp-config: --mcp-config: invalid JSON/],
    [["mcp", "list", "--mcp-config", "/nonexistent/servers.json"], /bad --mcp-config: .*file not found/],
    [["mcp", "list", "--mcp-config", '{"mcpServers":{"x":{"type":"http"}}}'], /server "x": url/],
  ])("%j exits 2 with a clear message", (args, message) => {
    const run = spawnSync(process.execPath, [BUILT_CLI, ...args], {
      encoding: "utf8",
      cwd: home,
      env: { ...process.env, HOME: home, WARDEN_HOME: join(home, ".warden") },
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
