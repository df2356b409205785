// The whole path through the real CLI: MCP servers from --mcp-config join the pool deferred, the
// model finds a tool with ToolSearch and then calls it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliOptions, type CliRun, jsonLines, runCli } from "../cli/run-cli.js";
import { reply, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { stdioServerConfig } from "./fixtures.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-mcp-session-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mcpConfig = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });

type Line = Record<string, unknown> & { type: string; subtype?: string };

function toolResults(lines: Line[]): Array<{ tool_use_id: string; content: unknown; is_error?: boolean }> {
  return lines
    .filter((l) => l.type === "user")
    .flatMap((l) => (l.message as { content: Array<Record<string, unknown>> }).content)
    .filter((b) => b.type === "tool_result") as Array<{ tool_use_id: string; content: unknown; is_error?: boolean }>;
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string }>).map((b) => b.text ?? "").join("\n");
}

const demoServer = { demo: stdioServerConfig("demo-server.ts") };

/**
 * Plays a replay script (named `name`) through the real CLI in stream-json, with these MCP
 * servers and every mcp__demo tool allowed; each run gets its own WARDEN_HOME.
 */
async function replayWithMcp(
  name: string,
  prompt: string,
  turns: object[],
  servers: Record<string, unknown> = demoServer,
  options: Omit<CliOptions, "home"> = {},
): Promise<CliRun> {
  const script = join(dir, `${name}.jsonl`);
  await writeFile(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  const args = ["-p", prompt, "--model", `replay:${script}`, "--output-format", "stream-json"];
  args.push("--mcp-config", mcpConfig(servers), "--allowedTools", "mcp__demo");
  return runCli(args, { ...options, home: join(dir, `home-${name}`) });
}

describe("a replayed session with MCP servers", () => {
  it("searches, finds and then calls an MCP tool; a dead server is reported and the session goes on", async () => {
    const turns = [
      { content: [{ type: "tool_use", id: "toolu_1", name: "ToolSearch", input: { query: "echo" } }] },
      { content: [{ type: "tool_use", id: "toolu_2", name: "mcp__demo__echo", input: { text: "hello from mcp" } }] },
      { content: [{ type: "text", text: "The server said hello." }] },
    ];
    const run = await replayWithMcp("search-then-call", "say hello through the demo server", turns, {
      ...demoServer,
      broken: stdioServerConfig("exit-at-start.ts"),
    });
    const lines = jsonLines(run.stdout) as Line[];
    const init = lines.find((l) => l.type === "system" && l.subtype === "init");
    expect(init?.mcp_servers).toEqual([
      { name: "broken", status: "failed" },
      { name: "demo", status: "connected" },
    ]);
    expect(init?.tools).toEqual(expect.arrayContaining(["ToolSearch", "mcp__demo__echo", "mcp__demo__search_issues"]));
    expect(run.stderr).toMatch(/MCP server "broken".*failed/);
    expect(run.stderr).toMatch(/missing API token/);

    const [search, echo] = toolResults(lines);
    expect(resultText(search?.content)).toMatch(/Loaded 1 tool\(s\): mcp__demo__echo/);
    expect(resultText(search?.content)).toContain(
      '"parameters":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}',
    );
    expect(echo?.is_error).toBeFalsy();
    expect(resultText(echo?.content)).toBe("hello from mcp");
    const result = lines.find((l) => l.type === "result");
    expect(result?.subtype).toBe("success");
    expect(run.code).toBe(0);
  }, 60_000);
});

describe("what the model is sent", () => {
  it("lists MCP tools by name only until ToolSearch loads them, then sends their schemas unchanged from then on", async () => {
    const server = await startScriptedModelServer();
    try {
      server.enqueue(
        reply().tool("ToolSearch", { query: "select:mcp__demo__search_issues" }),
        reply().tool("mcp__demo__search_issues", { query: "crash" }),
        reply().text("Found them."),
      );
      const run = await runCli(
        [
          "-p",
          "find crash issues",
          "--model",
          "anthropic:claude-test",
          "--output-format",
          "stream-json",
          "--mcp-config",
          mcpConfig({ demo: stdioServerConfig("demo-server.ts") }),
          "--allowedTools",
          "mcp__demo__search_issues",
        ],
        {
          home: join(dir, "home-wire"),
          env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
        },
      );
      expect(run.code, run.stderr).toBe(0);
      const bodies = server.requests.map(
        (r) => r.body as { system: unknown; tools: Array<{ name: string; input_schema: unknown }> },
      );
      expect(bodies).toHaveLength(3);
      const names = (i: number) => bodies[i]?.tools.map((t) => t.name) ?? [];
      const system = JSON.stringify(bodies[0]?.system);

      // First request: ToolSearch and the alwaysLoad tool are sent; the rest only named in the prompt.
      expect(names(0)).toContain("ToolSearch");
      expect(names(0)).toContain("mcp__demo__whoami");
      expect(names(0)).not.toContain("mcp__demo__search_issues");
      expect(system).toContain("<deferred-tools>");
      expect(system).toMatch(/mcp__demo__: [^"]*search_issues \(bug tracker tickets\)/);
      expect(system).toContain("# MCP server instructions");
      expect(system).toContain("Search with search_issues before you create an issue.");

      // After ToolSearch: the schema is sent, byte for byte what the server declared, and stays.
      const { SEARCH_ISSUES_SCHEMA } = await import("../fixtures/mcp-servers/demo-server.js");
      for (const i of [1, 2]) {
        const sent = bodies[i]?.tools.find((t) => t.name === "mcp__demo__search_issues");
        expect(sent?.input_schema).toEqual(SEARCH_ISSUES_SCHEMA);
      }
      const lines = jsonLines(run.stdout) as Line[];
      expect(resultText(toolResults(lines)[1]?.content)).toBe('found issues for {"query":"crash"}');
    } finally {
      await server.close();
    }
  }, 60_000);

  it("sends every schema and no ToolSearch with WARDEN_TOOL_SEARCH=never", async () => {
    const server = await startScriptedModelServer();
    try {
      server.enqueue(reply().text("ok"));
      const run = await runCli(
        [
          "-p",
          "hi",
          "--model",
          "anthropic:claude-test",
          "--mcp-config",
          mcpConfig({ demo: stdioServerConfig("demo-server.ts") }),
        ],
        {
          home: join(dir, "home-never"),
          env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL, WARDEN_TOOL_SEARCH: "never" },
        },
      );
      expect(run.code, run.stderr).toBe(0);
      const body = server.requests[0]?.body as { tools: Array<{ name: string }> } | undefined;
      const names = body?.tools.map((t) => t.name) ?? [];
      expect(names).toContain("mcp__demo__search_issues");
      expect(names).not.toContain("ToolSearch");
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("no orphans", () => {
  it("kills a server that outlives its stdin when the CLI is terminated mid-session", async () => {
    const { isAlive } = await import("./fixtures.js");
    const turns = [
      { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__demo__pid", input: {} }] },
      { content: [{ type: "tool_use", id: "toolu_2", name: "mcp__demo__sleep", input: { ms: 60_000 } }] },
      { content: [{ type: "text", text: "never reached" }] },
    ];
    let serverPid = 0;
    const run = await replayWithMcp(
      "pid-then-wait",
      "wait",
      turns,
      { demo: stdioServerConfig("demo-server.ts", "--linger") },
      {
        onStdout: (chunk, child) => {
          const match = /"tool_use_id":"toolu_1","content":\[\{"type":"text","text":"(\d+)"/.exec(chunk);
          if (match && serverPid === 0) {
            serverPid = Number(match[1]);
            // Give the second call time to start, then terminate the CLI from outside.
            setTimeout(() => child.kill("SIGTERM"), 300);
          }
        },
      },
    );
    expect(serverPid).toBeGreaterThan(0);
    expect(run.signal).toBe("SIGTERM");
    // Killed by signals sent as the CLI ends (and by the orphan guard's watcher once it has ended):
    // its death follows them, not always before this line runs on a loaded machine.
    const deadline = Date.now() + 5_000;
    while (isAlive(serverPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(serverPid)).toBe(false);
  }, 60_000);
});

describe("large MCP results", () => {
  it("go through the normal persistence path: saved to the session folder, a preview to the model", async () => {
    const turns = [
      { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__demo__big", input: { chars: 150_000 } }] },
      { content: [{ type: "text", text: "done" }] },
    ];
    const run = await replayWithMcp("big", "big", turns);
    expect(run.code, run.stderr).toBe(0);
    const [big] = toolResults(jsonLines(run.stdout) as Line[]);
    const text = resultText(big?.content);
    expect(text.length).toBeLessThan(20_000);
    expect(text).toContain("<persisted-output>");
    const path = /(\/\S+tool-results\/\S+)/.exec(text)?.[1]?.replace(/[).,]+$/, "");
    expect(path).toBeTruthy();
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(path as string, "utf8")).length).toBe(150_000);
  }, 60_000);
});

describe("tools/list_changed in a session", () => {
  it("adds the server's new tool to the pool mid-prompt: found with ToolSearch, then called", async () => {
    const turns = [
      { content: [{ type: "tool_use", id: "toolu_1", name: "mcp__demo__enable_extra", input: {} }] },
      // Leaves time for the notification and the refreshed list to arrive.
      { content: [{ type: "tool_use", id: "toolu_2", name: "mcp__demo__sleep", input: { ms: 500 } }] },
      {
        content: [{ type: "tool_use", id: "toolu_3", name: "ToolSearch", input: { query: "select:mcp__demo__extra" } }],
      },
      { content: [{ type: "tool_use", id: "toolu_4", name: "mcp__demo__extra", input: {} }] },
      { content: [{ type: "text", text: "done" }] },
    ];
    const run = await replayWithMcp("list-changed", "enable and use the extra tool", turns);
    expect(run.code, run.stderr).toBe(0);
    const lines = jsonLines(run.stdout) as Line[];
    const init = lines.find((l) => l.type === "system");
    expect(init?.tools).not.toContain("mcp__demo__extra");
    const results = toolResults(lines);
    expect(resultText(results[2]?.content)).toMatch(/Loaded 1 tool\(s\): mcp__demo__extra/);
    expect(results[3]?.is_error).toBeFalsy();
    expect(resultText(results[3]?.content)).toBe("extra works");
  }, 60_000);
});

describe("resuming a session", () => {
  it("keeps sending the schemas of the deferred tools the conversation had loaded", async () => {
    const server = await startScriptedModelServer();
    const home = join(dir, "home-resume");
    const config = mcpConfig(demoServer);
    const env = { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL };
    try {
      server.enqueue(reply().tool("ToolSearch", { query: "select:mcp__demo__echo" }), reply().text("Loaded."));
      const first = await runCli(
        [
          "-p",
          "load echo",
          "--model",
          "anthropic:claude-test",
          "--output-format",
          "stream-json",
          "--mcp-config",
          config,
        ],
        { home, env },
      );
      expect(first.code, first.stderr).toBe(0);
      const sessionId = (jsonLines(first.stdout) as Line[]).find((l) => l.type === "result")?.session_id as string;

      server.enqueue(reply().text("Still here."));
      const second = await runCli(
        ["-p", "again", "--resume", sessionId, "--model", "anthropic:claude-test", "--mcp-config", config],
        { home, env },
      );
      expect(second.code, second.stderr).toBe(0);
      const names = (i: number) =>
        ((server.requests[i]?.body as { tools?: Array<{ name: string }> } | undefined)?.tools ?? []).map((t) => t.name);
      expect(names(0)).not.toContain("mcp__demo__echo");
      expect(names(1)).toContain("mcp__demo__echo");
      expect(names(2)).toContain("mcp__demo__echo");
    } finally {
      await server.close();
    }
  }, 60_000);
});
