// What the two MCP resource tools (ListMcpResources, ReadMcpResource) need from the MCP client
// layer. Part of the contract so that neither side reaches into the other: the tools depend on
// this interface, not on the client manager, and src/mcp/manager.ts implements it without
// importing a tool's internals.
import type { ValidationResult } from "./types.js";

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

/** Both resource tools refuse a server that offers no resources, naming the ones that do. */
export function validateResourceServer(source: McpResourceSource, server: string): ValidationResult {
  const known = source.resourceServers();
  if (known.includes(server)) return { result: true };
  return {
    result: false,
    errorCode: 1,
    message: `No connected MCP server "${server}" offers resources. Servers with resources: ${known.length ? known.join(", ") : "none"}.`,
  };
}
