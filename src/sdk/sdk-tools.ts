// tool() and createSdkMcpServer(), with the Agent SDK's names and meanings: tools written in the
// caller's process, offered to the model as an MCP server's tools (mcp__<server>__<tool>), and
// decided by the same permission engine as every other tool. Nothing is loaded here: the MCP
// server behind them is made when a query first talks to it (./sdk-server-bridge.ts).
import type { CallToolResult, McpSdkServerConfigWithInstance, SdkMcpToolDefinition } from "./types.js";

export function tool<Shape extends Record<string, unknown>>(
  name: string,
  description: string,
  inputSchema: Shape,
  // biome-ignore lint/suspicious/noExplicitAny: the arguments are what the caller's zod shape says
  handler: (args: any, extra: unknown) => Promise<CallToolResult>,
  extras?: { annotations?: Record<string, unknown> },
): SdkMcpToolDefinition<Shape> {
  return { name, description, inputSchema, handler, ...(extras?.annotations && { annotations: extras.annotations }) };
}

export function createSdkMcpServer(options: {
  name: string;
  version?: string;
  instructions?: string;
  tools?: SdkMcpToolDefinition[];
}): McpSdkServerConfigWithInstance {
  return {
    type: "sdk",
    name: options.name,
    version: options.version ?? "1.0.0",
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    tools: options.tools ?? [],
  };
}
