// An agent's frontmatter `mcpServers` through the CLI: a server it defines inline starts for that
// agent's run, its tools reach that agent's requests and no one else's, and the server has stopped
// by the time the lead hears the agent's result. A server it only names is the session's own.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordedRequest,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { stdioServerConfig } from "../mcp/fixtures.js";
import { cliProject, messagesOf, runScriptedCli, type WireMessage, wireText } from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => server.respondWith(undefined));

const toolNames = (request: RecordedRequest) =>
  ((request.body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
const conversation = (request: RecordedRequest) => messagesOf(request).map(wireText).join("\n");
const isProber = (request: RecordedRequest) => wireText(messagesOf(request)[0] as WireMessage).includes("PROBE-TASK");

/** Live (not yet reaped or gone) processes whose command line holds `marker`. */
function liveProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) continue;
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /, "")[0];
      if (state !== "Z" && state !== "X") found.push(Number(entry));
    } catch {
      // Gone while looked at.
    }
  }
  return found;
}

describe("an agent's own MCP servers", () => {
  it("start for its run, serve it alone, and stop when it ends", async () => {
    const p = cliProject("agent-mcp");
    const marker = `agent-mcp-marker-${process.pid}-${Date.now()}`;
    const config = stdioServerConfig("demo-server.ts", marker);
    mkdirSync(join(p.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(p.home, ".claude", "agents", "prober.md"),
      [
        "---",
        "name: prober",
        "description: Probes with its own server.",
        "mcpServers:",
        "  - probe:",
        `      command: ${JSON.stringify(config.command)}`,
        `      args: ${JSON.stringify(config.args)}`,
        "---",
        "You probe.",
        "",
      ].join("\n"),
    );
    const proberRequests: RecordedRequest[] = [];
    const leadRequests: RecordedRequest[] = [];
    let aliveWhenLeadResumed: number[] | undefined;
    server.respondWith((request) => {
      if (isProber(request)) {
        proberRequests.push(request);
        return conversation(request).includes("PING-7") && proberRequests.length > 1
          ? reply().text("The server echoed.")
          : reply().tool("mcp__probe__echo", { text: "PING-7" });
      }
      leadRequests.push(request);
      if (leadRequests.length === 1)
        return reply().tool("Agent", { description: "probe", subagent_type: "prober", prompt: "PROBE-TASK" });
      aliveWhenLeadResumed ??= liveProcessesWith(marker);
      return reply().text("Done.");
    });
    const run = await runScriptedCli(server, p, ["-p", "Probe", "--allowedTools", "mcp__probe__echo"]);
    expect(run.code, run.stderr).toBe(0);
    expect(proberRequests.length).toBe(2);
    // Its tools are the agent's: `whoami` always loads, the others wait behind ToolSearch as usual.
    expect(toolNames(proberRequests[0] as RecordedRequest)).toContain("mcp__probe__whoami");
    // The tool's result (the server's echo) reached the agent.
    const result = messagesOf(proberRequests[1] as RecordedRequest).at(-1) as WireMessage;
    expect(wireText(result)).toContain("PING-7");
    // The lead never had the agent's server.
    for (const request of leadRequests)
      expect(toolNames(request).some((n) => n.startsWith("mcp__probe__"))).toBe(false);
    expect(aliveWhenLeadResumed).toEqual([]);
  });
});
