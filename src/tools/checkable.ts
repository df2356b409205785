// The tools `warden permissions check` can decide a call of: every tool a session could offer.
// Loaded only by that command (the Skill tool and the resource tools stay out of a session's
// start-up, which adds them when it has what they need).
import type { SkillCatalog } from "../config/skills/index.js";
import type { McpResourceSource } from "../tool/mcp-resource-source.js";
import type { AnyTool } from "../tool/types.js";
import { createListMcpResourcesTool } from "./list-mcp-resources/tool.js";
import { createReadMcpResourceTool } from "./read-mcp-resource/tool.js";
import { type BuiltInToolsOptions, builtInTools } from "./registry.js";
import { createSkillTool } from "./skill/tool.js";
import { TodoWriteTool } from "./todo-write/tool.js";

/** A resource source with no servers: the resource tools as a check sees them (nothing is ever read). */
const NO_RESOURCES: McpResourceSource = {
  resourceServers: () => [],
  listResources: async () => {
    throw new Error("no MCP server is connected here");
  },
  readResource: async () => {
    throw new Error("no MCP server is connected here");
  },
};

/**
 * Every tool a session could offer, for `warden permissions check`: the built-in pool with every
 * option on (teams, SendUserMessage, RemoteTrigger, both task-list families), and the tools a
 * session adds when it has what they need: Skill over the folder's skills, the two MCP resource
 * tools. Nothing here is run, so the resource tools get a source with no servers. A tool missing
 * here would be "unknown" to the check while a session decides its calls.
 */
export function checkableTools(options: BuiltInToolsOptions & { skills: SkillCatalog }): AnyTool[] {
  const tools = [
    ...builtInTools({
      ...options,
      teams: true,
      brief: true,
      fleet: true,
      taskTools: "Tasks",
      codeMode: {},
      powerShell: true,
    }),
    TodoWriteTool,
    createSkillTool(options.skills),
    createListMcpResourcesTool(NO_RESOURCES),
    createReadMcpResourceTool(NO_RESOURCES),
  ];
  return tools.filter((tool, index) => tools.findIndex((other) => other.name === tool.name) === index);
}
