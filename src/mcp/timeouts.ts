// Connection and call time limits, in Claude Code's environment variables so existing setups carry over.

export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;
/** How long a session waits for servers whose tools it does not remember before going on without them. */
export const DEFAULT_MCP_STARTUP_WAIT_MS = 10_000;
/** Long: MCP tools run builds and queries; a stuck one is still cut off and reported. */
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 600_000;

function positiveInt(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

/** MCP_TIMEOUT: how long a server may take to start and answer initialize (ms). */
export function mcpConnectTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInt(env.MCP_TIMEOUT) ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
}

/** MCP_TOOL_TIMEOUT: how long one tool call may take (ms). */
export function mcpToolTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInt(env.MCP_TOOL_TIMEOUT) ?? DEFAULT_MCP_TOOL_TIMEOUT_MS;
}

/**
 * WARDEN_MCP_STARTUP_WAIT_MS: how long a session waits, before its first request, for servers whose
 * tools it does not remember from the project's last session (ms). A server still starting after
 * that joins later (its tools are told to the model as they come); never longer than MCP_TIMEOUT.
 */
export function mcpStartupWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  return Math.min(positiveInt(env.WARDEN_MCP_STARTUP_WAIT_MS) ?? DEFAULT_MCP_STARTUP_WAIT_MS, mcpConnectTimeoutMs(env));
}
