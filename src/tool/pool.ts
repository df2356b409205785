import type { RulesByBehavior } from "./permission-types.js";
import type { AnyTool } from "./types.js";

export function toolMatchesName(tool: AnyTool, name: string): boolean {
  return tool.name === name || (tool.aliases?.includes(name) ?? false);
}

export function findToolByName(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => toolMatchesName(t, name));
}

/** A deny rule without content (`WebFetch`, `mcp__server`) removes the tool from the pool entirely. */
export function isDeniedByName(tool: AnyTool, rules: RulesByBehavior): boolean {
  return rules.deny.some((rule) => {
    if (rule.value.ruleContent !== undefined) return false;
    const ruleName = rule.value.toolName;
    if (toolMatchesName(tool, ruleName)) return true;
    // `mcp__server` (or `mcp__server__*`) denies every tool of that server.
    if (tool.mcpInfo) {
      const serverPrefix = `mcp__${tool.mcpInfo.serverName}`;
      return ruleName === serverPrefix || ruleName === `${serverPrefix}__*`;
    }
    return false;
  });
}

/**
 * The tools a session offers: enabled ones, minus those denied by name, built-ins first in their
 * given order and then MCP tools sorted by name. The order is part of the request prefix, so it
 * must not depend on connection timing.
 */
export function assembleToolPool(
  builtIn: readonly AnyTool[],
  mcpTools: readonly AnyTool[],
  rules: RulesByBehavior,
): AnyTool[] {
  const keep = (t: AnyTool) => t.isEnabled() && !isDeniedByName(t, rules);
  const seen = new Set<string>();
  const pool: AnyTool[] = [];
  const sortedMcp = [...mcpTools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const tool of [...builtIn, ...sortedMcp]) {
    if (!keep(tool) || seen.has(tool.name)) continue;
    seen.add(tool.name);
    pool.push(tool);
  }
  return pool;
}
