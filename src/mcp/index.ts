// MCP for library users: connect servers and add their tools to a pool, or serve a pool over MCP.
// The SDK itself loads only when a server is connected or served.
export {
  type McpConfigScope,
  type McpServerConfig,
  type McpServerEntry,
  normalizeNameForMcp,
  parseServerConfig,
} from "./config.js";
export { loadMcpServerEntries, type McpConfigLoad, type McpConfigSourcesOptions } from "./config-sources.js";
export type { McpServerState, McpServerStatus } from "./connection-types.js";
export { expandEnvVars } from "./env-expansion.js";
export { McpClientManager, type McpClientManagerOptions } from "./manager.js";
export { createMcpTool, type McpToolHost, type McpToolOutput } from "./mcp-tool.js";
export { mcpToolName, parseMcpToolName } from "./names.js";
export { serveStreamableHttp } from "./server/http.js";
export { newServerToken } from "./server/http-token.js";
export { createWardenMcpServer, servableTools, type WardenMcpServerOptions } from "./server/warden-server.js";
export { connectMcpForSession, type McpSession, type McpSessionOptions } from "./session-setup.js";
export { mcpConnectTimeoutMs, mcpToolTimeoutMs } from "./timeouts.js";
