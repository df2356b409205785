// Whole-tool rules: `Bash`, `WebFetch`, `mcp__server`, `mcp__server__*`, `mcp__server__tool`.
// Rules with content (`Bash(git:*)`, `Read(./src/**)`) are the tool's own business, matched in its
// checkPermissions; the engine only looks at rules that name a tool as a whole.
import type { PermissionRule } from "../../tool/permission-types.js";
import type { AnyTool } from "../../tool/types.js";

/** `mcp__server` and `mcp__server__*` name every tool of one server. */
function serverOfRule(ruleName: string): string | undefined {
  const match = /^mcp__(.+?)(__\*)?$/.exec(ruleName);
  if (!match) return undefined;
  const server = match[1]!;
  if (match[2] === undefined && server.includes("__")) return undefined; // mcp__server__tool
  return server;
}

function serverOfTool(tool: AnyTool): string | undefined {
  if (tool.mcpInfo) return tool.mcpInfo.serverName;
  const match = /^mcp__(.+?)__/.exec(tool.name);
  return match ? match[1] : undefined;
}

export function ruleNamesTool(ruleName: string, tool: AnyTool): boolean {
  if (tool.name === ruleName || (tool.aliases?.includes(ruleName) ?? false)) return true;
  const server = serverOfRule(ruleName);
  return server !== undefined && serverOfTool(tool) === server;
}

/** The first rule (highest precedence first) that names the tool as a whole. */
export function findWholeToolRule(rules: readonly PermissionRule[], tool: AnyTool): PermissionRule | undefined {
  return rules.find((rule) => rule.value.ruleContent === undefined && ruleNamesTool(rule.value.toolName, tool));
}
