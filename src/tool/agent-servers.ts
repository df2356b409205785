// What a session lends its subagents to start the MCP servers an agent's frontmatter defines
// (implemented in src/mcp/agent-servers.ts; the loop only calls it).
import type { AgentDefinition } from "./agents.js";
import type { AnyTool } from "./types.js";

/** The MCP servers an agent's frontmatter defines, started for one run of it (src/mcp/agent-servers.ts). */
export interface AgentMcpServers {
  /** The child's pool: the parent's tools, a session server of the same name replaced by the agent's. */
  tools: AnyTool[];
  /** One line per server that could not be used (bad entry, failed start), for the agent and its transcript. */
  problems: string[];
  stop(): Promise<void>;
}

/** Starts an agent's own servers (undefined when it defines none). */
export type AgentServerStarter = (
  definition: AgentDefinition,
  pool: readonly AnyTool[],
  cwd: string,
  env: Readonly<Record<string, string>> | undefined,
) => Promise<AgentMcpServers | undefined>;
