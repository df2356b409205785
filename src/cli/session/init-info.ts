// The init line of a stream-json session (system/init), the same for `-p` and the Agent SDK's
// stream-json input: what the session has (tools, MCP servers, agents, skills) and how it runs.
import { builtInCatalog } from "../../tools/agent/catalog.js";
import { apiKeySourceFor, type InitInfo, workspaceTrustLine } from "../headless-output.js";
import type { BuiltSession } from "./start.js";

export function initInfoOf(
  built: BuiltSession,
  extraServers: ReadonlyArray<{ name: string; status: string }> = [],
): InitInfo {
  const { plan, session, mcp, agentCatalog, skills } = built;
  const current = built.provider.current;
  return {
    cwd: plan.config.cwd,
    sessionId: session.sessionId,
    model: current.label,
    bareModel: current.model,
    apiKeySource: apiKeySourceFor(current.provider.name),
    tools: session.tools.map((t) => t.name),
    permissionMode: session.getAppState().toolPermissionContext.mode,
    mcpServers: [...mcp.servers, ...extraServers],
    workspaceTrust: workspaceTrustLine(plan.permissions.settings.workspaceTrust),
    agents: (agentCatalog ?? builtInCatalog()).agents.map((agent) => agent.agentType),
    agentErrors: agentCatalog?.issues ?? [],
    slashCommands: [
      "compact",
      ...skills.catalog.commands.map((c) => c.name),
      ...skills.catalog.skills.map((s) => s.name),
    ],
    skills: skills.catalog.skills.map((s) => s.name),
  };
}
