// The model-facing text of the McpAuth tools (one per MCP server that needs a login).
export function mcpAuthToolName(serverName: string): string {
  return `mcp__${serverName}__authenticate`;
}

export function mcpAuthDescription(serverName: string, transport: string, url: string): string {
  return `The \`${serverName}\` MCP server (${transport} at ${url}) needs the user to sign in before its tools can be used. Call this tool to start signing in: it returns a URL for the user to open in their browser. Once they have signed in, the server's tools become available; tell the user to open the URL, and do not call this tool again while they do.`;
}
