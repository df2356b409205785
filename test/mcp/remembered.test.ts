// MCP servers never hold back the first request when the project's last session remembers their
// tools: the real CLI, a real stdio MCP server (the SDK's) held back by a gate file, and the
// scripted Anthropic server, which opens the gate only once the first request has reached it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import { type CliRun, jsonLines, runCli } from "../cli/run-cli.js";
import {
  type RecordedRequest,
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { stdioServerConfig } from "./fixtures.js";

let dir: string;
let server: ScriptedModelServer;
let project: string;
let home: string;
let toolsFile: string;
let gateFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-mcp-remembered-"));
  server = await startScriptedModelServer();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

let caseNumber = 0;
beforeEach(() => {
  caseNumber++;
  project = join(dir, `project-${caseNumber}`);
  home = join(dir, `home-${caseNumber}`);
  mkdirSync(project, { recursive: true });
  toolsFile = join(dir, `tools-${caseNumber}.txt`);
  gateFile = join(dir, `gate-${caseNumber}`);
});
afterEach(() => {
  expect(server.pendingSteps()).toBe(0);
});

const rememberedFile = () => join(home, "projects", projectSlug(project), "mcp-tools.json");

function session(extraEnv: Record<string, string> = {}): Promise<CliRun> {
  // The same configuration every time: a changed command or argument is another server.
  const config = JSON.stringify({ mcpServers: { g: stdioServerConfig("gated-server.ts", toolsFile, gateFile) } });
  return runCli(
    [
      "-p",
      "go",
      "--model",
      "anthropic:claude-test",
      "--output-format",
      "stream-json",
      "--mcp-config",
      config,
      "--allowedTools",
      "mcp__g",
    ],
    {
      home,
      processCwd: project,
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.url, ...extraEnv },
    },
  );
}

/** A first session with the server open from the start: the project now remembers its tools. */
async function rememberTools(names: string[]): Promise<void> {
  writeFileSync(toolsFile, names.join("\n"));
  writeFileSync(gateFile, "");
  server.enqueue(reply().text("hi"));
  const run = await session();
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}

const systemOf = (request: RecordedRequest | undefined) =>
  JSON.stringify((request?.body as { system?: unknown } | undefined)?.system);
const bodyOf = (request: RecordedRequest | undefined) => JSON.stringify(request?.body);

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

// Two CLI sessions per case, each starting a TypeScript MCP server: slow on a loaded machine.
describe("MCP tool lists remembered per project", { timeout: 120_000 }, () => {
  it("remembers each server's tool names and a hash of their schemas in the project's folder", async () => {
    await rememberTools(["alpha", "beta"]);
    const remembered = JSON.parse(readFileSync(rememberedFile(), "utf8"));
    expect(Object.keys(remembered.servers)).toEqual(["g"]);
    expect(remembered.servers.g.tools.map((t: { name: string }) => t.name)).toEqual(["alpha", "beta"]);
    expect(remembered.servers.g.toolsHash).toMatch(/^[0-9a-f]{64}$/);
    // The configuration is kept as a hash only: its environment may hold secrets.
    expect(remembered.servers.g.configHash).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(rememberedFile(), "utf8")).not.toContain("gated-server");
  });

  it("sends the first request with the remembered tools while the server cannot answer, and a call waits for it", async () => {
    await rememberTools(["alpha", "beta"]);
    rmSync(gateFile);
    const before = server.requests.length;
    let gateWhenAsked: boolean | undefined;
    server.enqueue(
      replyFrom((request) => {
        // The server has not been able to read its stdin yet: nothing was waited for.
        gateWhenAsked = existsSync(gateFile);
        expect(systemOf(request)).toMatch(/mcp__g__: alpha, beta/);
        writeFileSync(gateFile, "");
        return reply().tool("mcp__g__alpha", { text: "hello" });
      }),
      reply().text("done"),
    );
    const run = await session();
    expect(run.code).toBe(0);
    expect(gateWhenAsked).toBe(false);
    const init = jsonLines(run.stdout).find((l) => l.type === "system" && l.subtype === "init");
    expect(init?.mcp_servers).toEqual([{ name: "g", status: "pending" }]);
    const followUp = server.requests[before + 1];
    expect(bodyOf(followUp)).toContain("alpha: hello");
    // Nothing changed, so the model is told nothing and the system prompt is the same.
    expect(bodyOf(followUp)).not.toContain("New deferred tools");
    expect(bodyOf(followUp)).not.toContain("no longer available");
    expect(systemOf(followUp)).toBe(systemOf(server.requests[before]));
  });

  it("tells the model only the change when the live list differs, and a call to a tool that has gone gets a clear error", async () => {
    await rememberTools(["alpha", "beta"]);
    writeFileSync(toolsFile, "alpha\ngamma");
    rmSync(gateFile);
    const before = server.requests.length;
    server.enqueue(
      replyFrom((request) => {
        expect(systemOf(request)).toMatch(/mcp__g__: alpha, beta/);
        writeFileSync(gateFile, "");
        return reply().tool("mcp__g__beta", { text: "hello" });
      }),
      reply().text("done"),
    );
    const run = await session();
    expect(run.code).toBe(0);
    const followUp = bodyOf(server.requests[before + 1]);
    expect(followUp).toMatch(/no longer offers the tool \\"beta\\"/);
    expect(followUp).toContain("New deferred tools are available (load them with ToolSearch): mcp__g__gamma.");
    expect(followUp).toContain("These deferred tools are no longer available: mcp__g__beta.");
    expect(systemOf(server.requests[before + 1])).toBe(systemOf(server.requests[before]));
    // The next session remembers the new list.
    const remembered = JSON.parse(readFileSync(rememberedFile(), "utf8"));
    expect(remembered.servers.g.tools.map((t: { name: string }) => t.name)).toEqual(["alpha", "gamma"]);
  });

  it("waits for a server it does not remember, goes on without it after the start-up wait and says so, and offers its tools once it connects", async () => {
    writeFileSync(toolsFile, "alpha");
    const before = server.requests.length;
    server.enqueue(
      replyFrom(async (request) => {
        expect(systemOf(request)).not.toContain("mcp__g__");
        writeFileSync(gateFile, "");
        // The server connects in the background; once it has, its list is remembered.
        await waitFor(() => existsSync(rememberedFile()), "the server to connect");
        return reply().tool("mcp__g__alpha", { text: "late" });
      }),
      reply().text("done"),
    );
    const run = await session({ WARDEN_MCP_STARTUP_WAIT_MS: "300" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /MCP server "g" \(--mcp-config\) is still starting after 300 ms \(WARDEN_MCP_STARTUP_WAIT_MS\); the session goes on without it/,
    );
    const followUp = bodyOf(server.requests[before + 1]);
    expect(followUp).toContain("alpha: late");
    expect(followUp).toContain("New deferred tools are available (load them with ToolSearch): mcp__g__alpha.");
  });

  it("does not use a list remembered for another configuration of the server", async () => {
    await rememberTools(["alpha"]);
    const remembered = JSON.parse(readFileSync(rememberedFile(), "utf8"));
    remembered.servers.g.configHash = "0".repeat(64);
    writeFileSync(rememberedFile(), JSON.stringify(remembered));
    rmSync(gateFile);
    const before = server.requests.length;
    server.enqueue(reply().text("hi"));
    const run = await session({ WARDEN_MCP_STARTUP_WAIT_MS: "200" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/MCP server "g" \(--mcp-config\) is still starting/);
    expect(systemOf(server.requests[before])).not.toContain("mcp__g__");
  });

  it("treats an unreadable memory as none", async () => {
    mkdirSync(join(home, "projects", projectSlug(project)), { recursive: true });
    writeFileSync(rememberedFile(), "{ not json");
    writeFileSync(toolsFile, "alpha");
    writeFileSync(gateFile, "");
    const before = server.requests.length;
    server.enqueue(reply().text("hi"));
    const run = await session();
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(systemOf(server.requests[before])).toMatch(/mcp__g__: alpha/);
    expect(JSON.parse(readFileSync(rememberedFile(), "utf8")).servers.g.tools[0].name).toBe("alpha");
  });
});
