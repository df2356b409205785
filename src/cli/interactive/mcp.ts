// The interactive UI's view of the session's MCP servers (/mcp): each server as it stands now and
// the operations the person may run on it, through the same live control the Agent SDK uses.
import type { McpLiveControl } from "../../mcp/live-control.js";
import type { McpServerSnapshot } from "../../mcp/manager.js";
import type { McpServersControl, McpServerView } from "../../ui/app/session-handle.js";

function viewOf(server: McpServerSnapshot): McpServerView {
  const fromProject = server.scope === "mcpjson" || server.scope === "project";
  return {
    name: server.name,
    state: server.state,
    ...(server.error !== undefined && { error: server.error }),
    scope: server.scope,
    ...(server.transport && { transport: server.transport }),
    tools: server.tools.map((tool) => tool.name),
    ...(server.serverInfo && { serverInfo: server.serverInfo }),
    disabledByUser: server.disabledByUser,
    // Waiting for the user, not for the folder's trust (that is asked for the whole folder).
    awaitingApproval: fromProject && !server.config && !/is not trusted/.test(server.error ?? ""),
  };
}

export function mcpServersControl(live: McpLiveControl): McpServersControl {
  return {
    servers: () => live.servers().map(viewOf),
    reconnect: async (name) => viewOf(await live.reconnect(name)),
    setEnabled: async (name, enabled) => viewOf(await live.setEnabled(name, enabled)),
    approve: async (name) => viewOf(await live.approve(name)),
  };
}
