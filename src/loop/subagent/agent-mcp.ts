// The MCP servers an agent's frontmatter defines inline (`mcpServers: [{name: {command: ...}}]`):
// started when that agent's run starts, offered to that agent alone, stopped when the run ends.
// Servers the frontmatter only names are the session's: already in the pool every agent gets.
// A project agent is loaded only once the folder is trusted (src/config/agent-files.ts), so the
// servers it brings wait for trust as .mcp.json's do. Loaded only for an agent that has some.
import type { AgentDefinition } from "../../tool/agents.js";
import type { AnyTool } from "../../tool/types.js";

export interface AgentMcpServers {
  /** The child's pool: the parent's tools, a session server of the same name replaced by the agent's. */
  tools: AnyTool[];
  /** One line per server that could not be used (bad entry, failed start), for the transcript. */
  problems: string[];
  stop(): Promise<void>;
}

export async function startAgentMcpServers(
  definition: AgentDefinition,
  pool: readonly AnyTool[],
  cwd: string,
  env: Readonly<Record<string, string>> | undefined,
): Promise<AgentMcpServers | undefined> {
  const inline = definition.inlineMcpServers;
  if (!inline || Object.keys(inline).length === 0) return undefined;
  const [{ parseServerConfig }, { McpClientManager }] = await Promise.all([
    import("../../mcp/config.js"),
    import("../../mcp/manager.js"),
  ]);
  const origin = definition.path ?? `agent ${definition.agentType}`;
  const entries = Object.entries(inline).map(([name, raw]) =>
    parseServerConfig(name, raw, definition.source === "project" ? "project" : "user", origin, {
      ...process.env,
      ...env,
    }),
  );
  const problems = entries
    .filter((entry) => entry.problem !== undefined)
    .map((entry) => `MCP server ${entry.name} of agent ${definition.agentType}: ${entry.problem}`);
  const usable = entries.filter((entry) => entry.config !== undefined);
  const manager = new McpClientManager(usable, { cwd, ...(env && { env }) });
  await manager.connectAll();
  for (const status of manager.statuses()) {
    if (status.state !== "connected")
      problems.push(`MCP server ${status.name} of agent ${definition.agentType}: ${status.error ?? status.state}`);
  }
  const own = new Set(usable.map((entry) => entry.name));
  const kept = pool.filter((tool) => !(tool.mcpInfo && own.has(tool.mcpInfo.serverName)));
  return { tools: [...kept, ...manager.tools()], problems, stop: () => manager.close() };
}
