// In-process MCP servers of the SDK (`createSdkMcpServer`): the server lives in the SDK's process,
// so our MCP client reaches it through the control channel. Each JSON-RPC message we send goes out
// as an `mcp_message` control request naming the server; the SDK answers with the server's reply
// (`mcp_response`). The server's tools then join the pool like any MCP server's, under the same
// permission engine (an ask goes to canUseTool).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createMcpTool } from "../../mcp/mcp-tool.js";
import type { AnyTool } from "../../tool/types.js";
import { wardenVersion } from "../version.js";
import type { ControlChannel, JsonObject } from "./channel.js";

/** A transport whose far end is the SDK's in-process server `serverName`. */
class ControlChannelTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(
    private readonly channel: ControlChannel,
    private readonly serverName: string,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const isRequest = "method" in message && "id" in message;
    const sending = this.channel.request({ subtype: "mcp_message", server_name: this.serverName, message });
    if (!isRequest) {
      // Notifications and our answers to the server: the SDK only acknowledges them.
      sending.catch((error: unknown) => this.onerror?.(error as Error));
      return;
    }
    sending.then(
      (response: JsonObject) => {
        const reply = response.mcp_response as JSONRPCMessage | undefined;
        if (reply) this.onmessage?.(reply);
      },
      (error: unknown) => {
        // The request fails at once instead of waiting for its timeout.
        this.onmessage?.({
          jsonrpc: "2.0",
          id: (message as { id: string | number }).id,
          error: { code: -32000, message: error instanceof Error ? error.message : String(error) },
        });
      },
    );
  }

  /** A message the server sends on its own (a notification), delivered by the SDK. */
  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

export interface SdkMcpServer {
  name: string;
  status: "connected" | "failed";
  error?: string;
  tools: AnyTool[];
  transport: ControlChannelTransport;
  close(): Promise<void>;
}

/** Connects to each named server through the SDK and lists its tools; a server that fails is reported, not fatal. */
export async function connectSdkMcpServers(channel: ControlChannel, names: readonly string[]): Promise<SdkMcpServer[]> {
  return Promise.all(
    names.map(async (name): Promise<SdkMcpServer> => {
      const transport = new ControlChannelTransport(channel, name);
      const client = new Client({ name: "warden", version: wardenVersion() });
      try {
        await client.connect(transport);
        const listed = await client.listTools();
        const host = {
          name,
          callTool: async (toolName: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }) =>
            (await client.callTool({ name: toolName, arguments: args }, undefined, {
              signal: options?.signal,
            })) as CallToolResult,
        };
        return {
          name,
          status: "connected",
          tools: listed.tools.map((def) => createMcpTool(host, def)),
          transport,
          close: () => client.close(),
        };
      } catch (error) {
        return {
          name,
          status: "failed",
          error: error instanceof Error ? error.message : String(error),
          tools: [],
          transport,
          close: async () => undefined,
        };
      }
    }),
  );
}
