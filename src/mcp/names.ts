// `mcp__<server>__<tool>`: the double underscore keeps the server visible in every tool name, so
// rules (`mcp__github`, `mcp__github__create_issue`) and ToolSearch can address a server at once.
import { normalizeNameForMcp } from "./config.js";

export const MCP_TOOL_PREFIX = "mcp__";

export function mcpToolName(serverName: string, toolName: string): string {
  return `${MCP_TOOL_PREFIX}${normalizeNameForMcp(serverName)}__${normalizeNameForMcp(toolName)}`;
}

/** `mcp__github__create_issue` → { server: "github", tool: "create_issue" }; undefined for other names. */
export function parseMcpToolName(name: string): { server: string; tool?: string } | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const split = rest.indexOf("__");
  if (split === -1) return rest ? { server: rest } : undefined;
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) || undefined };
}
