// `mcp__<server>__<tool>`: the double underscore keeps the server visible in every tool name, so
// rules (`mcp__github`, `mcp__github__create_issue`) and ToolSearch can address a server at once.
import { createHash } from "node:crypto";
import { normalizeNameForMcp } from "./config.js";

export const MCP_TOOL_PREFIX = "mcp__";

/** Model APIs refuse a whole request whose tool names pass 64 characters (Anthropic and OpenAI alike). */
export const MAX_TOOL_NAME_CHARS = 64;

/**
 * The tool's name for the model. A name past the API limit keeps its head (server and the start
 * of the tool, what rules and people recognise) and ends in a short hash of the full name, so two
 * long names that share a head stay distinct.
 */
export function mcpToolName(serverName: string, toolName: string): string {
  const full = `${MCP_TOOL_PREFIX}${normalizeNameForMcp(serverName)}__${normalizeNameForMcp(toolName)}`;
  if (full.length <= MAX_TOOL_NAME_CHARS) return full;
  const digest = createHash("sha256").update(full).digest("hex").slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME_CHARS - digest.length - 1)}_${digest}`;
}

/** `mcp__github__create_issue` → { server: "github", tool: "create_issue" }; undefined for other names. */
export function parseMcpToolName(name: string): { server: string; tool?: string } | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const split = rest.indexOf("__");
  if (split === -1) return rest ? { server: rest } : undefined;
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) || undefined };
}
