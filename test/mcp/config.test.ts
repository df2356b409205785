// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings test ${VAR} expansion itself.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "../../src/config/settings.js";
import { parseServerConfig } from "../../src/mcp/config.js";
import { loadMcpServerEntries } from "../../src/mcp/config-sources.js";
import { expandEnvVars } from "../../src/mcp/env-expansion.js";
import { mcpToolName, parseMcpToolName } from "../../src/mcp/names.js";

describe("expandEnvVars", () => {
  const env = { TOKEN: "abc", EMPTY: "" };
  it.each([
    ["Bearer ${TOKEN}", "Bearer abc", []],
    ["${MISSING:-fallback}", "fallback", []],
    ["${EMPTY:-used when empty}", "used when empty", []],
    ["${TOKEN:-unused}", "abc", []],
    ["${EMPTY}", "", []],
    ["a ${NOPE} b", "a ${NOPE} b", ["NOPE"]],
    ["no variables $HOME", "no variables $HOME", []],
  ])("%s", (input, value, missing) => {
    expect(expandEnvVars(input, env)).toEqual({ value, missing });
  });
});

describe("parseServerConfig", () => {
  const env = { BIN: "/usr/bin/node", PORT: "8123", TOKEN: "t0k" };
  it("expands command, args, env, url and headers", () => {
    const stdio = parseServerConfig(
      "s",
      { command: "${BIN}", args: ["--port=${PORT}"], env: { KEY: "${TOKEN}" } },
      "cli",
      "x",
      env,
    );
    expect(stdio.config).toEqual({
      type: "stdio",
      command: "/usr/bin/node",
      args: ["--port=8123"],
      env: { KEY: "t0k" },
    });
    const http = parseServerConfig(
      "h",
      { type: "http", url: "http://127.0.0.1:${PORT}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      "cli",
      "x",
      env,
    );
    expect(http.config).toEqual({
      type: "http",
      url: "http://127.0.0.1:8123/mcp",
      headers: { Authorization: "Bearer t0k" },
    });
    expect(parseServerConfig("e", { type: "sse", url: "https://example.com/sse" }, "cli", "x", env).config?.type).toBe(
      "sse",
    );
  });

  it.each([
    ["missing variable", { command: "run", args: ["${NOT_SET}"] }, /missing environment variable\(s\) NOT_SET/],
    ["no command", { args: [] }, /command/],
    ["bad type", { type: "ws", url: "ws://x" }, /unsupported server type "ws"/],
    ["bad url", { type: "http", url: "not a url" }, /not a valid URL/],
    ["file url", { type: "http", url: "file:///etc/passwd" }, /must be http/],
    ["not an object", ["run"], /JSON object/],
    ["args not strings", { command: "x", args: [1] }, /args/],
  ])("rejects %s with a clear problem", (_label, raw, problem) => {
    const entry = parseServerConfig("s", raw, "cli", "x", env);
    expect(entry.config).toBeUndefined();
    expect(entry.problem).toMatch(problem);
  });

  it("rejects server names that would corrupt tool names", () => {
    expect(parseServerConfig("a b", { command: "x" }, "cli", "x", env).problem).toMatch(/server name/);
    // Rules name servers verbatim (`mcp__my.server` could never match a tool name), so no dots either.
    expect(parseServerConfig("my.server", { command: "x" }, "cli", "x", env).problem).toMatch(
      /letters, digits, "_" and "-"/,
    );
  });
});

describe("tool names", () => {
  it("builds and parses mcp__server__tool", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my-server", "do thing.now")).toBe("mcp__my-server__do_thing_now");
    expect(parseMcpToolName("mcp__github__create_issue")).toEqual({ server: "github", tool: "create_issue" });
    expect(parseMcpToolName("mcp__github")).toEqual({ server: "github" });
    expect(parseMcpToolName("Read")).toBeUndefined();
  });

  it("keeps names within the APIs' 64 characters, distinct and stable", () => {
    const a = mcpToolName("enterprise-knowledge-base", "search_documents_by_semantic_similarity_and_date");
    const b = mcpToolName("enterprise-knowledge-base", "search_documents_by_semantic_similarity_and_author");
    expect(a).toHaveLength(64);
    expect(a).toMatch(/^mcp__enterprise-knowledge-base__search_documents_by_sem[a-z_]*_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(mcpToolName("enterprise-knowledge-base", "search_documents_by_semantic_similarity_and_date")).toBe(a);
  });
});

describe("loadMcpServerEntries", () => {
  let dir: string;
  let home: string;
  const saved = {
    HOME: process.env.HOME,
    WARDEN_HOME: process.env.WARDEN_HOME,
    WARDEN_MANAGED_SETTINGS: process.env.WARDEN_MANAGED_SETTINGS,
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "warden-mcp-config-"));
    home = join(dir, "home");
    await mkdir(join(home, ".warden"), { recursive: true });
    await mkdir(join(dir, "project", ".warden"), { recursive: true });
    process.env.HOME = home;
    process.env.WARDEN_HOME = join(home, ".warden");
    process.env.WARDEN_MANAGED_SETTINGS = join(dir, "no-policy.json");
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(dir, { recursive: true, force: true });
  });

  const project = () => join(dir, "project");
  // The folder trusted (as with --trust-project): approvals are what a trusted folder's files say.
  const load = (mcpConfigArgs: string[] = [], strict = false, trustProject = true) =>
    loadMcpServerEntries({
      cwd: project(),
      mcpConfigArgs,
      strict,
      settings: loadSettings({ cwd: project(), trustProject }),
      env: {},
    });

  it("starts nothing from an untrusted folder's .mcp.json, whatever its local settings approve", async () => {
    await writeFile(join(project(), ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: "repo-server" } } }));
    await writeFile(
      join(project(), ".warden", "settings.local.json"),
      JSON.stringify({ enableAllProjectMcpServers: true, enabledMcpjsonServers: ["repo"] }),
    );
    expect(load([], false, false).servers).toEqual([]);
    const listed = loadMcpServerEntries({
      cwd: project(),
      settings: loadSettings({ cwd: project() }),
      listUntrusted: true,
      env: {},
    });
    expect(listed.servers).toEqual([
      expect.objectContaining({ name: "repo", problem: expect.stringMatching(/not started: .* is not trusted/) }),
    ]);
    expect(listed.servers[0]?.config).toBeUndefined();
  });

  it("needs approval for .mcp.json servers, given in local settings", async () => {
    await writeFile(join(project(), ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: "repo-server" } } }));
    // The step the trust question names (warden mcp approve), and what it writes.
    expect(load().servers[0]?.problem).toBe(
      'project server not approved: run `warden mcp approve repo` (or pick it in /mcp), which adds "enabledMcpjsonServers": ["repo"] to .warden/settings.local.json',
    );
    await writeFile(
      join(project(), ".warden", "settings.local.json"),
      JSON.stringify({ enabledMcpjsonServers: ["repo"] }),
    );
    expect(load().servers[0]).toMatchObject({ name: "repo", scope: "mcpjson", config: { command: "repo-server" } });
  });

  it("does not let the repository approve its own servers", async () => {
    await writeFile(join(project(), ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: "evil" } } }));
    await writeFile(join(project(), ".warden", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
    expect(load().servers[0]?.problem).toMatch(/not approved/);
  });

  it("lets later sources replace earlier ones by name, --mcp-config last", async () => {
    await writeFile(
      join(home, ".warden", "settings.json"),
      JSON.stringify({ mcpServers: { a: { command: "from-user" }, b: { command: "user-b" } } }),
    );
    const file = join(dir, "extra.json");
    await writeFile(file, JSON.stringify({ mcpServers: { a: { command: "from-file" } } }));
    const { servers } = load([file, '{"mcpServers":{"c":{"type":"http","url":"http://127.0.0.1:1/mcp"}}}']);
    expect(
      servers.map((s) => [s.name, s.scope, s.config?.type === "stdio" ? s.config.command : s.config?.type]),
    ).toEqual([
      ["a", "cli", "from-file"],
      ["b", "user", "user-b"],
      ["c", "cli", "http"],
    ]);
    expect(load([file], true).servers.map((s) => s.name)).toEqual(["a"]);
  });

  it("reads Claude Code's ~/.claude.json user and per-project servers", async () => {
    await writeFile(
      join(home, ".claude.json"),
      JSON.stringify({
        mcpServers: { u: { command: "u" } },
        projects: { [project()]: { mcpServers: { l: { command: "l" } } } },
      }),
    );
    expect(load().servers.map((s) => [s.name, s.scope])).toEqual([
      ["l", "local"],
      ["u", "user"],
    ]);
  });

  it("reads every MCP file an editor saved with a byte-order mark, as settings files are read", async () => {
    const bom = (value: unknown) => `\uFEFF${JSON.stringify(value)}`;
    await writeFile(join(project(), ".mcp.json"), bom({ mcpServers: { repo: { command: "repo-server" } } }));
    await writeFile(join(project(), ".warden", "settings.local.json"), bom({ enabledMcpjsonServers: ["repo"] }));
    await writeFile(join(home, ".claude.json"), bom({ mcpServers: { u: { command: "u" } } }));
    const file = join(dir, "extra.json");
    await writeFile(file, bom({ mcpServers: { a: { command: "from-file" } } }));
    const result = load([file]);
    expect(result.fileProblems).toEqual([]);
    expect(result.servers.map((s) => [s.name, s.scope, s.problem])).toEqual([
      ["a", "cli", undefined],
      ["repo", "mcpjson", undefined],
      ["u", "user", undefined],
    ]);
  });

  it("reports an unreadable --mcp-config file and keeps the other servers", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, "{ not json");
    const result = load([bad, join(dir, "missing.json"), '{"mcpServers":{"ok":{"command":"x"}}}']);
    expect(result.fileProblems.join("\n")).toMatch(/bad\.json: invalid JSON/);
    expect(result.fileProblems.join("\n")).toMatch(/missing\.json: file not found/);
    expect(result.servers.map((s) => s.name)).toEqual(["ok"]);
  });
});

describe("MCP_TIMEOUT and MCP_TOOL_TIMEOUT", () => {
  it("read positive milliseconds and fall back to the defaults otherwise", async () => {
    const { mcpConnectTimeoutMs, mcpToolTimeoutMs, DEFAULT_MCP_CONNECT_TIMEOUT_MS, DEFAULT_MCP_TOOL_TIMEOUT_MS } =
      await import("../../src/mcp/timeouts.js");
    expect(mcpConnectTimeoutMs({ MCP_TIMEOUT: "1500" })).toBe(1500);
    expect(mcpToolTimeoutMs({ MCP_TOOL_TIMEOUT: "90000" })).toBe(90000);
    for (const bad of ["", "abc", "-5", "0"]) {
      expect(mcpConnectTimeoutMs({ MCP_TIMEOUT: bad })).toBe(DEFAULT_MCP_CONNECT_TIMEOUT_MS);
      expect(mcpToolTimeoutMs({ MCP_TOOL_TIMEOUT: bad })).toBe(DEFAULT_MCP_TOOL_TIMEOUT_MS);
    }
  });
});

describe("connectMcpForSession", () => {
  let dir: string;
  const saved = {
    HOME: process.env.HOME,
    WARDEN_HOME: process.env.WARDEN_HOME,
    WARDEN_MANAGED_SETTINGS: process.env.WARDEN_MANAGED_SETTINGS,
    WARDEN_TOOL_SEARCH: process.env.WARDEN_TOOL_SEARCH,
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "warden-mcp-setup-"));
    await mkdir(join(dir, ".warden"), { recursive: true });
    process.env.HOME = dir;
    process.env.WARDEN_HOME = join(dir, "home");
    process.env.WARDEN_MANAGED_SETTINGS = join(dir, "none.json");
    delete process.env.WARDEN_TOOL_SEARCH;
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("takes the tool-search mode from settings, warns about a bad one, and costs nothing without servers", async () => {
    const { connectMcpForSession } = await import("../../src/mcp/session-setup.js");
    const warnings: string[] = [];
    await writeFile(join(dir, ".warden", "settings.json"), JSON.stringify({ toolSearch: "auto" }));
    const auto = await connectMcpForSession({ cwd: dir, mcpConfig: [], warn: (m) => warnings.push(m) });
    expect(auto.toolSearchMode).toBe("auto");
    expect(auto.tools).toEqual([]);
    expect(auto.initialAppState()).toEqual({ toolSearchMode: "auto" });
    await writeFile(join(dir, ".warden", "settings.json"), JSON.stringify({ toolSearch: "sometimes" }));
    const bad = await connectMcpForSession({ cwd: dir, mcpConfig: [], warn: (m) => warnings.push(m) });
    expect(bad.toolSearchMode).toBe("defer");
    expect(warnings.join("\n")).toMatch(/toolSearch must be "defer", "never" or "auto", not "sometimes"/);
  });

  it("uses settings the caller already read instead of reading the files again", async () => {
    const { connectMcpForSession } = await import("../../src/mcp/session-setup.js");
    const { loadSettings } = await import("../../src/config/settings.js");
    await writeFile(join(dir, ".warden", "settings.json"), JSON.stringify({ toolSearch: "never" }));
    const loadedSettings = loadSettings({ cwd: dir });
    await writeFile(join(dir, ".warden", "settings.json"), JSON.stringify({ toolSearch: "auto" }));
    const session = await connectMcpForSession({ cwd: dir, mcpConfig: [], loadedSettings, warn: () => {} });
    expect(session.toolSearchMode).toBe("never");
  });
});
