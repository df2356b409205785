// All of a session's MCP servers: connected in parallel at start, their tools offered as
// `mcp__server__tool`, the two resource tools when some server has resources, and every child
// closed at the end. A server that fails costs only its own tools.

import type { McpResourceContents, McpResourceInfo, McpResourceSource } from "../tool/mcp-resource-source.js";
import type { AnyTool } from "../tool/types.js";
import { createListMcpResourcesTool } from "../tools/list-mcp-resources/tool.js";
import { createReadMcpResourceTool } from "../tools/read-mcp-resource/tool.js";
import type { McpClientFeatures } from "./client-features/index.js";
import type { McpServerEntry } from "./config.js";
import { McpServerConnection, type McpServerStatus } from "./connection.js";
import { createMcpTool } from "./mcp-tool.js";
import { mcpConnectTimeoutMs, mcpToolTimeoutMs } from "./timeouts.js";

export interface McpClientManagerOptions {
  cwd: string;
  /** Default MCP_TIMEOUT or 30 s. */
  connectTimeoutMs?: number;
  /** Default MCP_TOOL_TIMEOUT or 10 min. */
  toolTimeoutMs?: number;
  /** What servers may ask of the session besides tools (questions, completions, roots, logs). */
  features?: McpClientFeatures;
}

export type ToolsChangedListener = (tools: AnyTool[]) => void;

export class McpClientManager implements McpResourceSource {
  private readonly connections: McpServerConnection[];
  /** Tool objects per server, rebuilt only when that server's list changes (keeps schema caches warm). */
  private readonly toolsByServer = new Map<string, { defs: unknown; tools: AnyTool[] }>();
  private readonly listeners = new Set<ToolsChangedListener>();
  private readonly resourceTools: AnyTool[];

  constructor(entries: readonly McpServerEntry[], options: McpClientManagerOptions) {
    const connectionOptions = {
      cwd: options.cwd,
      connectTimeoutMs: options.connectTimeoutMs ?? mcpConnectTimeoutMs(),
      toolTimeoutMs: options.toolTimeoutMs ?? mcpToolTimeoutMs(),
      onToolsChanged: () => this.notify(),
      ...(options.features && { features: options.features }),
    };
    this.connections = entries.map((entry) => new McpServerConnection(entry, connectionOptions));
    this.resourceTools = [createListMcpResourcesTool(this), createReadMcpResourceTool(this)];
  }

  /** Connects every server at once; resolves when each has connected or failed. Never throws. */
  async connectAll(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.connect()));
  }

  /** The session's folders changed: every connected server that asked for roots is told. */
  async rootsChanged(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.rootsChanged()));
  }

  statuses(): McpServerStatus[] {
    return this.connections.map((c) => c.status());
  }

  connection(name: string): McpServerConnection | undefined {
    return this.connections.find((c) => c.name === name);
  }

  /**
   * The MCP tools to add to the pool: every tool of every connected server, plus
   * ListMcpResources / ReadMcpResource when some server offers resources.
   */
  tools(): AnyTool[] {
    const tools: AnyTool[] = [];
    for (const connection of this.connections) {
      // A server that went away keeps its tools: the next call reconnects it.
      if (!connection.isConnected() && connection.state !== "disconnected") continue;
      let cached = this.toolsByServer.get(connection.name);
      if (!cached || cached.defs !== connection.tools) {
        cached = { defs: connection.tools, tools: connection.tools.map((def) => createMcpTool(connection, def)) };
        this.toolsByServer.set(connection.name, cached);
      }
      tools.push(...cached.tools);
    }
    if (this.resourceServers().length > 0) tools.push(...this.resourceTools);
    return tools;
  }

  /** Called with the new tool list whenever a server's tools change (list_changed, reconnect). */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    const tools = this.tools();
    for (const listener of this.listeners) listener(tools);
  }

  /** Servers' instructions for the model, by server, in configuration order. */
  instructions(): Array<{ server: string; text: string }> {
    const found: Array<{ server: string; text: string }> = [];
    for (const connection of this.connections) {
      const text = connection.instructions;
      if (text) found.push({ server: connection.name, text });
    }
    return found;
  }

  resourceServers(): string[] {
    return this.connections.filter((c) => c.supportsResources).map((c) => c.name);
  }

  private requireConnection(server: string): McpServerConnection {
    const connection = this.connection(server);
    if (!connection) throw new Error(`No MCP server named "${server}"`);
    return connection;
  }

  async listResources(server: string): Promise<McpResourceInfo[]> {
    const resources = await this.requireConnection(server).listResources();
    return resources.map((r) => ({
      server,
      uri: r.uri,
      name: r.name,
      ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
      ...(r.description !== undefined ? { description: r.description } : {}),
    }));
  }

  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourceContents[]> {
    const result = await this.requireConnection(server).readResource(uri, signal);
    return result.contents.map((item) => ({
      uri: item.uri,
      ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}),
      ...("text" in item && typeof item.text === "string" ? { text: item.text } : {}),
      ...("blob" in item && typeof item.blob === "string" ? { blob: item.blob } : {}),
    }));
  }

  /** Closes every server in parallel; safe to call more than once. */
  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
