// The MCP servers an agent's frontmatter defines inline (`mcpServers: [{name: {command: ...}}]`):
// started when that agent's run starts, offered to that agent alone, stopped when the run ends.
// Servers the frontmatter only names are the session's: already in the pool every agent gets.
// A project agent is loaded only once the folder is trusted (src/config/agent-files.ts), so the
// servers it brings wait for trust as .mcp.json's do. Loaded only for an agent that has some.
// The session passes this to its subagents (SessionEngineOptions.agentMcpServers): the loop does
// not reach the MCP layer itself.
import type { AgentMcpServers, AgentServerStarter } from "../tool/agent-servers.js";

export const startAgentMcpServers: AgentServerStarter = async (
  definition,
  pool,
  cwd,
  env,
): Promise<AgentMcpServers | undefined> => {
  const inline = definition.inlineMcpServers;
  if (!inline || Object.keys(inline).length === 0) return undefined;
  const [{ parseServerConfig }, { McpClientManager }] = await Promise.all([
    import("./config.js"),
    import("./manager.js"),
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
};
