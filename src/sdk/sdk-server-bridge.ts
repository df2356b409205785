// The far end of an in-process SDK MCP server: the session's MCP client sends each JSON-RPC
// message as an `mcp_message` control request; here it goes to an MCP server made from the
// server's tool() definitions over an in-memory transport, and the server's reply goes back. The
// MCP SDK is loaded when a query first talks to such a server.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpSdkServerConfigWithInstance } from "./types.js";

interface Connected {
  send(message: JSONRPCMessage): Promise<JSONRPCMessage | undefined>;
  close(): Promise<void>;
}

export class SdkServerBridge {
  private readonly connected = new Map<string, Promise<Connected>>();
  private readonly servers: Map<string, McpSdkServerConfigWithInstance>;

  constructor(servers: ReadonlyMap<string, McpSdkServerConfigWithInstance>) {
    this.servers = new Map(servers);
  }

  /**
   * setMcpServers(): these become the in-process servers, as the Agent SDK does it: a server not
   * named is closed and forgotten, a new name is registered, a name already registered keeps its
   * first definition (remove it, then add it, to change it).
   */
  async replace(servers: ReadonlyMap<string, McpSdkServerConfigWithInstance>): Promise<void> {
    for (const name of [...this.servers.keys()]) {
      if (servers.has(name)) continue;
      this.servers.delete(name);
      const connection = this.connected.get(name);
      this.connected.delete(name);
      await (await connection)?.close();
    }
    for (const [name, config] of servers) if (!this.servers.has(name)) this.servers.set(name, config);
  }

  /** The reply to one message for `serverName` (undefined for a notification). */
  async handle(serverName: string, message: JSONRPCMessage): Promise<JSONRPCMessage | undefined> {
    let connection = this.connected.get(serverName);
    if (!connection) {
      const config = this.servers.get(serverName);
      if (!config) throw new Error(`no SDK MCP server named ${JSON.stringify(serverName)}`);
      connection = connect(config);
      this.connected.set(serverName, connection);
    }
    return (await connection).send(message);
  }

  async close(): Promise<void> {
    await Promise.all([...this.connected.values()].map(async (c) => (await c).close()));
  }
}

async function connect(config: McpSdkServerConfigWithInstance): Promise<Connected> {
  const [{ McpServer }, { InMemoryTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/inMemory.js"),
  ]);
  const server = new McpServer(
    { name: config.name, version: config.version },
    config.instructions !== undefined ? { instructions: config.instructions } : {},
  );
  for (const definition of config.tools) {
    server.registerTool(
      definition.name,
      {
        description: definition.description,
        // The caller's zod raw shape, as the Agent SDK takes it.
        inputSchema: definition.inputSchema as never,
        ...(definition.annotations && { annotations: definition.annotations }),
      },
      ((args: unknown, extra: unknown) => definition.handler(args, extra)) as never,
    );
  }
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<string | number, (reply: JSONRPCMessage) => void>();
  ours.onmessage = (message) => {
    const id = (message as { id?: string | number }).id;
    const isReply = id !== undefined && !("method" in message);
    if (isReply && waiting.has(id)) {
      waiting.get(id)?.(message);
      waiting.delete(id);
    }
  };
  await server.connect(theirs);
  await ours.start();
  return {
    async send(message) {
      const id = (message as { id?: string | number }).id;
      if (id === undefined || !("method" in message)) {
        await ours.send(message);
        return undefined;
      }
      const reply = new Promise<JSONRPCMessage>((resolve) => waiting.set(id, resolve));
      await ours.send(message);
      return reply;
    },
    close: () => server.close(),
  };
}
