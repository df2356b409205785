// The Agent SDK's MCP controls against Warden's built CLI: setMcpServers() adds and removes real
// stdio servers (the official MCP SDK's, as child processes) while the session runs,
// mcpServerStatus() reports each one live, toggleMcpServer() takes a server's tools away from the
// model and gives them back, reconnectMcpServer() brings back a server whose process died. What the
// model is told is read on the wire of a scripted Anthropic server: the change arrives as a reminder,
// the system prompt and the tool list sent up front stay byte for byte the same.
import { readdirSync, readFileSync } from "node:fs";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { stdioServerConfig } from "../mcp/fixtures.js";
import { Prompts, sdkOptions, workspace } from "./sdk-harness.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

interface WireRequest {
  system: Array<{ text: string }> | string;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: unknown }> | string }>;
}

const bodyOf = (index: number) => server.requests[index]?.body as WireRequest;
/** Everything the request's last user message says (its reminders, its tool results), as text. */
function lastUserText(request: WireRequest): string {
  const user = [...request.messages].reverse().find((m) => m.role === "user");
  if (!user) return "";
  return typeof user.content === "string" ? user.content : JSON.stringify(user.content);
}

/** Child processes of `pid` whose command line mentions `needle` (Linux /proc). */
function childrenOf(pid: number, needle: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid && readFileSync(`/proc/${name}/cmdline`, "utf8").includes(needle)) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

describe("MCP servers changed at run time through the Agent SDK", () => {
  it("adds, reports, turns off and on, reconnects and removes servers; the model hears only the change", async () => {
    const ws = workspace();
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, {
        model: "claude-sonnet-4-6",
        allowedTools: ["mcp__demo"],
        extraEnv: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      }),
    });
    const first = server.requests.length;
    server.enqueue(
      reply().text("one"),
      reply().tool("ToolSearch", { query: "select:mcp__demo__echo" }),
      reply().tool("mcp__demo__echo", { text: "hello through a server added at run time" }),
      reply().text("two"),
      reply().text("three"),
    );
    prompts.send("hi");
    const results: string[] = [];
    const steps: Array<() => Promise<void>> = [
      async () => {
        // No server at start; two added now, one of which dies at once.
        const outcome = await q.setMcpServers({
          demo: stdioServerConfig("demo-server.ts"),
          broken: stdioServerConfig("exit-at-start.ts"),
        });
        expect(outcome.added).toEqual(["broken", "demo"]);
        expect(outcome.removed).toEqual([]);
        expect(Object.keys(outcome.errors)).toEqual(["broken"]);
        expect(outcome.errors.broken).toMatch(/missing API token/);
        const statuses = await q.mcpServerStatus();
        const demo = statuses.find((s) => s.name === "demo");
        expect(demo).toMatchObject({ status: "connected", serverInfo: { name: "demo", version: "1.0.0" } });
        expect(demo?.tools?.find((t) => t.name === "echo")).toMatchObject({
          description: "Echo the given text back.",
          annotations: { readOnly: true, destructive: false, openWorld: false },
        });
        expect(statuses.find((s) => s.name === "broken")).toMatchObject({ status: "failed" });
        expect(statuses.find((s) => s.name === "broken")?.error).toMatch(/missing API token/);
        prompts.send("use the echo tool");
      },
      async () => {
        await q.toggleMcpServer("demo", false);
        const demo = (await q.mcpServerStatus()).find((s) => s.name === "demo");
        expect(demo).toMatchObject({ status: "disabled", tools: [] });
        prompts.send("and now?");
      },
      async () => {
        await q.toggleMcpServer("demo", true);
        expect((await q.mcpServerStatus()).find((s) => s.name === "demo")?.status).toBe("connected");
        await expect(q.reconnectMcpServer("broken")).rejects.toThrow(/missing API token/);
        await expect(q.reconnectMcpServer("nothing-here")).rejects.toThrow(/No MCP server named "nothing-here"/);
        // A server whose process dies: a clear state and error, then reconnect brings it back.
        // Warden's initialize answer carries its pid (Claude Code's does too; the SDK's type leaves it out).
        const wardenPid = ((await q.initializationResult()) as unknown as { pid: number }).pid;
        const [demoPid] = childrenOf(wardenPid, "demo-server.mjs");
        expect(demoPid).toBeGreaterThan(0);
        process.kill(demoPid as number, "SIGKILL");
        let dead: Awaited<ReturnType<typeof q.mcpServerStatus>>[number] | undefined;
        while (dead?.status !== "failed") {
          await new Promise((resolve) => setImmediate(resolve));
          dead = (await q.mcpServerStatus()).find((s) => s.name === "demo");
        }
        expect(dead.error).toMatch(/connection closed/);
        await q.reconnectMcpServer("demo");
        expect((await q.mcpServerStatus()).find((s) => s.name === "demo")?.status).toBe("connected");
        expect(childrenOf(wardenPid, "demo-server.mjs")).not.toContain(demoPid);
        const removal = await q.setMcpServers({});
        expect(removal.removed.sort()).toEqual(["broken", "demo"]);
        expect(await q.mcpServerStatus()).toEqual([]);
        expect(childrenOf(wardenPid, "demo-server.mjs")).toEqual([]);
        prompts.end();
      },
    ];
    for await (const message of q) {
      if (message.type !== "result") continue;
      results.push(message.subtype === "success" ? message.result : message.subtype);
      await steps[results.length - 1]?.();
    }
    expect(results).toEqual(["one", "two", "three"]);

    // The echo call ran on the server added at run time.
    const afterEcho = bodyOf(first + 3);
    expect(lastUserText(afterEcho)).toContain("hello through a server added at run time");
    // The model was told of the new tools as a reminder, not by a new system prompt or tool list.
    const before = bodyOf(first);
    const told = bodyOf(first + 1);
    expect(lastUserText(told)).toMatch(/New deferred tools are available[^"]*mcp__demo__echo/);
    expect(told.system).toEqual(before.system);
    // The tools sent up front keep their place; only the server's alwaysLoad tool joins, after them.
    const beforeTools = JSON.stringify(before.tools);
    expect(JSON.stringify(told.tools?.slice(0, before.tools?.length))).toBe(beforeTools);
    expect(told.tools?.slice(before.tools?.length).map((t) => t.name)).toEqual(["mcp__demo__whoami"]);
    // Turned off: the model hears that they went.
    const gone = bodyOf(first + 4);
    expect(lastUserText(gone)).toMatch(/no longer available[^"]*mcp__demo__echo/);
    expect(gone.system).toEqual(before.system);
  }, 120_000);
});
