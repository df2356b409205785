// /mcp: the session's MCP servers with their state and tools; pick one (arrows and Enter) to
// approve it (a project server waiting for approval), turn it off or on (remembered for this
// folder, as Claude Code's per-project disabledMcpServers: a server turned off is not started by
// later sessions here), or reconnect it. Each change reaches the model as a reminder of the tools
// that came or went.
import type { McpServerView } from "../app/session-handle.js";
import type { CommandContext, SlashCommand } from "./slash-commands.js";

type Action = "approve" | "enable" | "disable" | "reconnect";

const DONE: Record<Action, string> = {
  approve: "Approved",
  enable: "Enabled",
  disable: "Disabled",
  reconnect: "Reconnected",
};

function stateWords(server: McpServerView): string {
  if (server.awaitingApproval) return "awaiting approval";
  if (server.disabledByUser) return "disabled";
  return server.state;
}

function summaryLine(server: McpServerView): string {
  const tools = server.tools.length > 0 ? ` · ${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}` : "";
  return `${server.name} · ${stateWords(server)}${tools}`;
}

/** The server in full: where it comes from, what it said it is, why it is not running, its tools. */
function details(server: McpServerView): string {
  const lines = [
    `MCP server ${server.name} (${server.scope}${server.transport ? `, ${server.transport}` : ""}): ${stateWords(server)}`,
  ];
  if (server.serverInfo) lines.push(`  server: ${server.serverInfo.name} ${server.serverInfo.version}`);
  if (server.error) lines.push(`  ${server.awaitingApproval ? "note" : "error"}: ${server.error.split("\n")[0]}`);
  if (server.tools.length > 0) lines.push(`  tools: ${server.tools.join(", ")}`);
  return lines.join("\n");
}

function actionsFor(server: McpServerView): Array<{ label: string; value: Action }> {
  if (server.awaitingApproval)
    return [{ label: "Approve (remembered for this folder) and start it", value: "approve" }];
  if (server.disabledByUser) return [{ label: "Enable (remembered for this folder)", value: "enable" }];
  if (server.state === "disabled") return [];
  return [
    { label: "Reconnect", value: "reconnect" },
    { label: "Disable (remembered for this folder)", value: "disable" },
  ];
}

async function run(ctx: CommandContext, server: McpServerView, action: Action): Promise<McpServerView> {
  const mcp = ctx.handle.mcp;
  switch (action) {
    case "approve":
      return mcp.approve(server.name);
    case "enable":
      return mcp.setEnabled(server.name, true);
    case "disable":
      return mcp.setEnabled(server.name, false);
    case "reconnect":
      return mcp.reconnect(server.name);
  }
}

export const mcpCommand: SlashCommand = {
  name: "mcp",
  description: "MCP servers: state and tools; approve, disable, enable or reconnect one",
  run: async (ctx) => {
    const servers = ctx.handle.mcp.servers();
    if (servers.length === 0) {
      ctx.transcript.addNotice("No MCP servers are configured (settings mcpServers, .mcp.json or --mcp-config).");
      return;
    }
    ctx.transcript.addNotice(["MCP servers:", ...servers.map((s) => `  ${summaryLine(s)}`)].join("\n"));
    const name = await ctx.pick(
      "MCP servers: pick one to act on",
      servers.map((s) => ({ label: summaryLine(s), value: s.name })),
    );
    const server = ctx.handle.mcp.servers().find((s) => s.name === name);
    if (!server) return;
    ctx.transcript.addNotice(details(server));
    const actions = actionsFor(server);
    if (actions.length === 0) return;
    const action = (await ctx.pick(`${server.name}: what to do?`, actions)) as Action | undefined;
    if (!action) return;
    try {
      const after = await run(ctx, server, action);
      const tools = after.tools.length > 0 ? `\n  tools: ${after.tools.join(", ")}` : "";
      ctx.transcript.addNotice(`${DONE[action]} ${summaryLine(after)}${tools}`);
    } catch (error) {
      ctx.transcript.addNotice(
        `MCP server ${server.name}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        "error",
      );
    }
  },
};
