// What the two MCP resource tools need from the MCP client layer. Defined here, on the tools'
// side, so the tools do not depend on the client manager (src/mcp implements this interface).

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  /** Base64. */
  blob?: string;
}

export interface McpResourceSource {
  /** Connected servers that offer resources, in a stable order. */
  resourceServers(): string[];
  listResources(server: string, signal?: AbortSignal): Promise<McpResourceInfo[]>;
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourceContents[]>;
}
