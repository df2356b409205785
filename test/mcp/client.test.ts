// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the configs below use ${VAR} expansion on purpose.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpClientManager } from "../../src/mcp/manager.js";
import type { ToolResultBlock } from "../../src/messages/types.js";
import { runToolUse } from "../../src/orchestration/run-tool-use.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { isDeferredTool } from "../../src/tool/deferred.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { findToolByName } from "../../src/tool/pool.js";
import { toolInputJSONSchema } from "../../src/tool/schema.js";
import type { AnyTool, CanUseTool } from "../../src/tool/types.js";
import { SEARCH_ISSUES_SCHEMA } from "../fixtures/mcp-servers/demo-server.js";
import {
  childPids,
  entry,
  type HttpFixture,
  isAlive,
  REPO_ROOT,
  startHttpFixture,
  stdioServerConfig,
} from "./fixtures.js";

const allow: CanUseTool = async (_tool, input) => ({ behavior: "allow", updatedInput: input });
let sessionDir: string;

beforeAll(async () => {
  sessionDir = await mkdtemp(join(tmpdir(), "warden-mcp-client-"));
});
afterAll(async () => {
  await rm(sessionDir, { recursive: true, force: true });
});

let calls = 0;
async function call(tools: AnyTool[], name: string, input: Record<string, unknown> = {}, abort?: AbortController) {
  const context = createToolUseContext({
    options: { tools, model: "test", cwd: REPO_ROOT, sessionId: "s", sessionDir, isNonInteractive: true },
    appState: { toolPermissionContext: emptyPermissionContext(REPO_ROOT) },
    abortController: abort,
  });
  const id = `toolu_${++calls}`;
  const outcome = await runToolUse({ type: "tool_use", id, name, input }, context, allow, undefined);
  return outcome.result;
}

function textOf(result: ToolResultBlock): string {
  return typeof result.content === "string"
    ? result.content
    : result.content.map((b) => (b.type === "text" ? b.text : `[image ${b.source.media_type}]`)).join("\n");
}

const managers: McpClientManager[] = [];
function manager(
  entries: Parameters<typeof entry>[],
  options: { connectTimeoutMs?: number; toolTimeoutMs?: number } = {},
) {
  const m = new McpClientManager(
    entries.map((args) => entry(...args)),
    {
      cwd: REPO_ROOT,
      connectTimeoutMs: options.connectTimeoutMs ?? 15_000,
      toolTimeoutMs: options.toolTimeoutMs ?? 15_000,
    },
  );
  managers.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

describe("MCP client over stdio", () => {
  it("offers each server tool as mcp__server__tool with its schema passed through unchanged", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]]);
    await m.connectAll();
    expect(m.statuses()[0]).toMatchObject({ name: "demo", state: "connected", transport: "stdio", toolCount: 12 });
    const tools = m.tools();
    expect(tools.map((t) => t.name)).toContain("mcp__demo__search_issues");
    const search = findToolByName(tools, "mcp__demo__search_issues") as AnyTool;
    expect(toolInputJSONSchema(search)).toEqual(SEARCH_ISSUES_SCHEMA);
    expect(JSON.stringify(toolInputJSONSchema(search))).toBe(JSON.stringify(SEARCH_ISSUES_SCHEMA));
    expect(search.searchHint).toBe("bug tracker tickets");
    expect(await search.prompt({ tools, permissionContext: emptyPermissionContext("/"), cwd: "/" })).toBe(
      "Search issues of the tracker by text and labels.",
    );
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["ListMcpResources", "ReadMcpResource"]));
  });

  it("maps annotations and _meta to the tool's traits", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]]);
    await m.connectAll();
    const tools = m.tools();
    const echo = findToolByName(tools, "mcp__demo__echo") as AnyTool;
    const destroy = findToolByName(tools, "mcp__demo__delete_everything") as AnyTool;
    const whoami = findToolByName(tools, "mcp__demo__whoami") as AnyTool;
    expect([echo.isReadOnly({}), echo.isConcurrencySafe({}), echo.isDestructive({}), echo.isOpenWorld({})]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([
      destroy.isReadOnly({}),
      destroy.isConcurrencySafe({}),
      destroy.isDestructive({}),
      destroy.isOpenWorld({}),
    ]).toEqual([false, false, true, true]);
    expect(isDeferredTool(echo)).toBe(true);
    expect(isDeferredTool(whoami)).toBe(false);
    const decision = await echo.checkPermissions({}, {} as never);
    expect(decision.behavior).toBe("passthrough");
  });

  it("calls tools and maps text, images, structured content and errors", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]]);
    await m.connectAll();
    const tools = m.tools();
    expect(textOf(await call(tools, "mcp__demo__echo", { text: "hello" }))).toBe("hello");
    const picture = await call(tools, "mcp__demo__picture");
    expect(picture.content).toEqual([
      { type: "text", text: "a red pixel:" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: expect.any(String) } },
    ]);
    expect(JSON.parse(textOf(await call(tools, "mcp__demo__stats")))).toEqual({ open: 3, closed: 5 });
    const failed = await call(tools, "mcp__demo__fail");
    expect(failed.is_error).toBe(true);
    expect(textOf(failed)).toBe("the database is locked");
  });

  it("reports a server that crashes mid-call, keeps the session going, and restarts it on the next use", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]]);
    await m.connectAll();
    const tools = m.tools();
    const firstPid = Number(textOf(await call(tools, "mcp__demo__pid")));
    const crashed = await call(tools, "mcp__demo__crash");
    expect(crashed.is_error).toBe(true);
    expect(textOf(crashed)).toMatch(/MCP server "demo" closed the connection during tool crash/);
    expect(textOf(crashed)).toMatch(/crashing on purpose/);
    expect(m.statuses()[0]?.state).toBe("disconnected");
    expect(isAlive(firstPid)).toBe(false);
    expect(textOf(await call(tools, "mcp__demo__echo", { text: "back" }))).toBe("back");
    const secondPid = Number(textOf(await call(tools, "mcp__demo__pid")));
    expect(secondPid).not.toBe(firstPid);
    expect(m.statuses()[0]?.state).toBe("connected");
  });

  it("cuts off a call that never answers after MCP_TOOL_TIMEOUT and the server stays usable", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]], { toolTimeoutMs: 300 });
    await m.connectAll();
    const tools = m.tools();
    const slow = await call(tools, "mcp__demo__sleep", { ms: 60_000 });
    expect(slow.is_error).toBe(true);
    expect(textOf(slow)).toMatch(/did not answer within 300 ms \(MCP_TOOL_TIMEOUT\)/);
    expect(textOf(await call(tools, "mcp__demo__echo", { text: "still here" }))).toBe("still here");
  });

  it("stops waiting at once when the call is aborted", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]]);
    await m.connectAll();
    const abort = new AbortController();
    const pending = call(m.tools(), "mcp__demo__sleep", { ms: 60_000 }, abort);
    setTimeout(() => abort.abort(), 100);
    const result = await pending;
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toMatch(/Interrupted/);
  });

  it("gives up on a server that never answers initialize after MCP_TIMEOUT, and kills it", async () => {
    const before = new Set(childPids());
    const m = manager(
      [
        ["silent", stdioServerConfig("silent-server.ts")],
        ["demo", stdioServerConfig("demo-server.ts")],
      ],
      // Long enough for the other server (compiled, ~0.2 s alone) to start while the heavy tier runs beside.
      { connectTimeoutMs: 6_000 },
    );
    await m.connectAll();
    const [silent, demo] = [m.connection("silent")?.status(), m.connection("demo")?.status()];
    expect(silent?.state).toBe("failed");
    expect(silent?.error).toMatch(/6000 ms \(MCP_TIMEOUT\)/);
    expect(demo?.state).toBe("connected");
    expect(m.tools().some((t) => t.name.startsWith("mcp__silent__"))).toBe(false);
    await m.close();
    expect(childPids().filter((pid) => !before.has(pid))).toEqual([]);
  });

  it("kills what a server started too (a shell's child), so nothing holds its pipes open after close", async () => {
    // `sh -c` (as npx and uvx do) starts the real program as its child; one that never answers is
    // given up on, and stopping the shell alone left the child running with the server's stdout.
    const dir = await mkdtemp(join(tmpdir(), "warden-mcp-grandchild-"));
    const pidFile = join(dir, "child.pid");
    const m = manager([["wrapped", { command: "sh", args: ["-c", `sleep 300 & echo $! > ${pidFile}; wait`] }]], {
      connectTimeoutMs: 1_000,
    });
    await m.connectAll();
    expect(m.connection("wrapped")?.status().state).toBe("failed");
    await m.close();
    const grandchild = Number(await readFile(pidFile, "utf8"));
    expect(isAlive(grandchild)).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });

  it("reports a server that exits at start with its stderr, while the others connect", async () => {
    const m = manager([
      ["broken", stdioServerConfig("exit-at-start.ts")],
      ["demo", stdioServerConfig("demo-server.ts")],
    ]);
    await m.connectAll();
    const broken = m.connection("broken")?.status();
    expect(broken?.state).toBe("failed");
    expect(broken?.error).toMatch(/missing API token/);
    expect(m.connection("demo")?.status().state).toBe("connected");
  });

  it("refreshes the tools when the server sends tools/list_changed", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]]);
    await m.connectAll();
    expect(m.tools().some((t) => t.name === "mcp__demo__extra")).toBe(false);
    const changed = new Promise<AnyTool[]>((resolve) => m.onToolsChanged(resolve));
    await call(m.tools(), "mcp__demo__enable_extra");
    const tools = await changed;
    expect(tools.map((t) => t.name)).toContain("mcp__demo__extra");
    expect(textOf(await call(tools, "mcp__demo__extra"))).toBe("extra works");
    expect(m.statuses()[0]?.toolCount).toBe(13);
  });

  it("lists and reads resources: text, image, binary saved to the session folder", async () => {
    const m = manager([["demo", stdioServerConfig("demo-server.ts")]]);
    await m.connectAll();
    const tools = m.tools();
    const listed = textOf(await call(tools, "ListMcpResources", {}));
    expect(listed).toContain('"uri":"demo://readme"');
    expect(textOf(await call(tools, "ReadMcpResource", { server: "demo", uri: "demo://readme" }))).toBe(
      "Hello from the demo server.",
    );
    const pixel = await call(tools, "ReadMcpResource", { server: "demo", uri: "demo://pixel" });
    expect(Array.isArray(pixel.content) && pixel.content[0]?.type).toBe("image");
    const blob = textOf(await call(tools, "ReadMcpResource", { server: "demo", uri: "demo://blob" }));
    const path = /saved to (\S+)\]/.exec(blob)?.[1] as string;
    expect(path.startsWith(sessionDir)).toBe(true);
    expect([...(await readFile(path))]).toEqual([0, 1, 2, 3]);
    const unknown = await call(tools, "ReadMcpResource", { server: "nope", uri: "x" });
    expect(unknown.is_error).toBe(true);
    expect(textOf(unknown)).toMatch(/No connected MCP server "nope"/);
    const unknownList = await call(tools, "ListMcpResources", { server: "nope" });
    expect(unknownList.is_error).toBe(true);
    expect(textOf(unknownList)).toMatch(
      /No connected MCP server "nope" offers resources\. Servers with resources: demo\./,
    );
  });

  it("leaves no child process behind after close", async () => {
    const before = new Set(childPids());
    const m = manager([
      ["one", stdioServerConfig("demo-server.ts")],
      ["two", stdioServerConfig("demo-server.ts")],
    ]);
    await m.connectAll();
    const pids = await Promise.all(
      ["one", "two"].map(async (s) => Number(textOf(await call(m.tools(), `mcp__${s}__pid`)))),
    );
    expect(pids.every(isAlive)).toBe(true);
    expect(
      childPids()
        .filter((pid) => !before.has(pid))
        .sort(),
    ).toEqual([...pids].sort());
    await m.close();
    expect(pids.some(isAlive)).toBe(false);
    expect(childPids().filter((pid) => !before.has(pid))).toEqual([]);
    expect(m.statuses().map((s) => s.state)).toEqual(["closed", "closed"]);
  });
});

describe("MCP client over HTTP", () => {
  let http: HttpFixture;
  let sse: HttpFixture;
  beforeAll(async () => {
    [http, sse] = await Promise.all([startHttpFixture("--http"), startHttpFixture("--sse")]);
  });
  afterAll(async () => {
    await Promise.all([http?.stop(), sse?.stop()]);
  });

  it("calls tools over streamable HTTP with ${VAR}-expanded headers", async () => {
    const env = { ...process.env, DEMO_PORT: String(http.port), DEMO_TOKEN: "s3cret" };
    const m = manager([
      [
        "remote",
        { type: "http", url: "http://127.0.0.1:${DEMO_PORT}/mcp", headers: { "x-demo-token": "${DEMO_TOKEN}" } },
        env,
      ],
    ]);
    await m.connectAll();
    expect(m.statuses()[0]).toMatchObject({ state: "connected", transport: "http", toolCount: 12 });
    const tools = m.tools();
    expect(toolInputJSONSchema(findToolByName(tools, "mcp__remote__search_issues") as AnyTool)).toEqual(
      SEARCH_ISSUES_SCHEMA,
    );
    expect(textOf(await call(tools, "mcp__remote__echo", { text: "over http" }))).toBe("over http");
    expect(textOf(await call(tools, "mcp__remote__whoami"))).toBe("demo-user (token s3cret)");
  });

  it("calls tools over SSE", async () => {
    const m = manager([["legacy", { type: "sse", url: `http://127.0.0.1:${sse.port}/sse` }]]);
    await m.connectAll();
    expect(m.statuses()[0]).toMatchObject({ state: "connected", transport: "sse" });
    expect(textOf(await call(m.tools(), "mcp__legacy__echo", { text: "over sse" }))).toBe("over sse");
  });

  it("reconnects to an HTTP server that went away and came back", async () => {
    const own = await startHttpFixture("--http");
    let restarted: HttpFixture | undefined;
    try {
      const m = manager([["flaky", { type: "http", url: `http://127.0.0.1:${own.port}/mcp` }]]);
      await m.connectAll();
      expect(textOf(await call(m.tools(), "mcp__flaky__echo", { text: "one" }))).toBe("one");
      await own.stop();
      const down = await call(m.tools(), "mcp__flaky__echo", { text: "two" });
      expect(down.is_error).toBe(true);
      expect(textOf(down)).toMatch(/could not be reached.*reconnected on the next use/);
      expect(m.statuses()[0]?.state).toBe("disconnected");
      restarted = await startHttpFixture("--http", own.port);
      expect(textOf(await call(m.tools(), "mcp__flaky__echo", { text: "three" }))).toBe("three");
      expect(m.statuses()[0]?.state).toBe("connected");
    } finally {
      await own.stop();
      await restarted?.stop();
    }
  });

  it("reports an HTTP server that is not there", async () => {
    const m = manager([["gone", { type: "http", url: "http://127.0.0.1:1/mcp" }]], { connectTimeoutMs: 3000 });
    await m.connectAll();
    expect(m.statuses()[0]?.state).toBe("failed");
    expect(m.statuses()[0]?.error).toBeTruthy();
  });
});
