// A subagent's tools, in the reference's layers, each applied to what the one before left:
//   1. MCP tools are always allowed (they are the user's own servers; the definition may still
//      name them in disallowedTools);
//   2. tools no agent may have (Tool.subagentAccess 'none': they talk with the user or steer the
//      main session), and those only a teammate may have ('teammates': they talk with its lead);
//   3. tools no custom agent may have (subagentAccess 'built-in');
//   4. the smaller set for background agents: nothing that needs a person;
//   5. the definition's own `tools` and `disallowedTools`.
// A fork does not come through here: it keeps the parent's exact pool (cache-identical prefix).
import type { AgentDefinition } from "../../tool/agents.js";
import { toolMatchesName } from "../../tool/pool.js";
import type { AnyTool } from "../../tool/types.js";

export interface ToolFilterOptions {
  background: boolean;
  /** The agent is a teammate (its lead answers for it: SendMessage, ExitPlanMode). */
  teammate?: boolean;
}

function named(tool: AnyTool, names: readonly string[] | undefined): boolean {
  if (!names) return false;
  return names.some((name) => {
    if (toolMatchesName(tool, name)) return true;
    // `mcp__server` or `mcp__server__*` names every tool of that server.
    if (!tool.mcpInfo) return false;
    const server = `mcp__${tool.mcpInfo.serverName}`;
    return name === server || name === `${server}__*`;
  });
}

export function filterAgentTools(
  pool: readonly AnyTool[],
  definition: AgentDefinition,
  options: ToolFilterOptions,
): AnyTool[] {
  const allowList = definition.tools && !definition.tools.includes("*") ? definition.tools : undefined;
  return pool.filter((tool) => {
    if (named(tool, definition.disallowedTools)) return false;
    if (tool.mcpInfo) return true;
    const access = tool.subagentAccess ?? "all";
    if (access === "none") return false;
    if (access === "teammates" && !options.teammate) return false;
    if (access === "built-in" && definition.source !== "built-in") return false;
    if (options.background && tool.requiresUserInteraction()) return false;
    return allowList ? named(tool, allowList) : true;
  });
}

/** Names in the definition's `tools` that match nothing in the pool (a typo is worth a word). */
export function unknownToolNames(pool: readonly AnyTool[], definition: AgentDefinition): string[] {
  const names = [...(definition.tools ?? []), ...(definition.disallowedTools ?? [])].filter((n) => n !== "*");
  return names.filter((name) => !pool.some((tool) => named(tool, [name])));
}
