// All of a session's MCP servers: connected in parallel at start, their tools offered as
// `mcp__server__tool`, the two resource tools when some server has resources, and every child
// closed at the end. A server that fails costs only its own tools. A server whose tool list the
// project's last session remembered (remembered-tools.ts) offers that list while it connects, so
// the session need not wait for it; once connected, its live list replaces the remembered one, and
// listeners hear of it only when the two differ.

import type { Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import type { McpResourceContents, McpResourceInfo, McpResourceSource } from "../tool/mcp-resource-source.js";
import type { AnyTool } from "../tool/types.js";
import { createListMcpResourcesTool } from "../tools/list-mcp-resources/tool.js";
import { createMcpAuthTool } from "../tools/mcp-auth/tool.js";
import { createReadMcpResourceTool } from "../tools/read-mcp-resource/tool.js";
import type { McpClientFeatures } from "./client-features/index.js";
import type { McpServerEntry } from "./config.js";
import { McpServerConnection } from "./connection.js";
import type { ConnectionOptions, McpServerStatus } from "./connection-types.js";
import { createMcpTool } from "./mcp-tool.js";
import { hashToolDefinitions, type RememberedServer } from "./remembered-tools.js";
import { mcpConnectTimeoutMs, mcpToolTimeoutMs } from "./timeouts.js";

export interface McpClientManagerOptions {
  cwd: string;
  /** Variables the session adds to the processes it starts (settings `env`), for stdio servers. */
  env?: Readonly<Record<string, string>>;
  /** Default MCP_TIMEOUT or 30 s. */
  connectTimeoutMs?: number;
  /** Default MCP_TOOL_TIMEOUT or 10 min. */
  toolTimeoutMs?: number;
  /** What servers may ask of the session besides tools (questions, completions, roots, logs). */
  features?: McpClientFeatures;
  /**
   * Tool lists remembered from the project's last session, by server name (only for servers whose
   * configuration is unchanged): offered while that server is still connecting.
   */
  remembered?: ReadonlyMap<string, RememberedServer>;
  /** Called each time a server has connected (or failed), after its tools are known. */
  onServerSettled?: (connection: McpServerConnection) => void;
  /**
   * Whether the user turned this server off for the project (settings `disabledMcpServers`):
   * such a server is added turned off, nothing started, until setEnabled(name, true).
   */
  isDisabled?: (name: string) => boolean;
}

export type ToolsChangedListener = (tools: AnyTool[]) => void;

interface OfferedTools {
  defs: readonly McpToolDefinition[];
  hash: string;
  tools: AnyTool[];
}

/** A server as it stands now, with what it offers: for mcp_status and /mcp. */
export interface McpServerSnapshot extends McpServerStatus {
  tools: readonly McpToolDefinition[];
  config?: McpServerEntry["config"];
  /** Turned off by the user (it can be turned on again), not a configuration that cannot run. */
  disabledByUser: boolean;
}

function byName(a: McpServerConnection, b: McpServerConnection): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class McpClientManager implements McpResourceSource {
  /** In name order; servers come and go at run time (addServer, removeServer). */
  private readonly connections: McpServerConnection[];
  private readonly connectionOptions: ConnectionOptions;
  /**
   * Tool objects per server, rebuilt only when that server's list changes (keeps schema caches
   * warm, and keeps the pool identical when a live list equals the remembered one).
   */
  private readonly toolsByServer = new Map<string, OfferedTools>();
  private readonly listeners = new Set<ToolsChangedListener>();
  private readonly resourceTools: AnyTool[];
  /** The McpAuth tool of each server that needs a login (kept, so the pool stays the same objects). */
  private readonly authTools = new Map<string, AnyTool>();
  /** Forgotten for a server replaced or removed at run time: its memory was of another configuration. */
  private readonly remembered: Map<string, RememberedServer>;
  private readonly started = new Map<McpServerConnection, Promise<void>>();
  private closed = false;
  /** The tool list listeners last heard of (or were given at start), to tell only real changes. */
  private lastTold: readonly AnyTool[] | undefined;

  constructor(
    entries: readonly McpServerEntry[],
    private readonly options: McpClientManagerOptions,
  ) {
    const connectionOptions: ConnectionOptions = {
      cwd: options.cwd,
      ...(options.env && { env: options.env }),
      connectTimeoutMs: options.connectTimeoutMs ?? mcpConnectTimeoutMs(),
      toolTimeoutMs: options.toolTimeoutMs ?? mcpToolTimeoutMs(),
      onToolsChanged: () => this.notify(),
      ...(options.features && { features: options.features }),
    };
    this.connectionOptions = connectionOptions;
    this.connections = entries.map((entry) => this.newConnection(entry));
    this.remembered = new Map(options.remembered ?? []);
    this.resourceTools = [createListMcpResourcesTool(this), createReadMcpResourceTool(this)];
  }

  private newConnection(entry: McpServerEntry): McpServerConnection {
    return new McpServerConnection(entry, this.connectionOptions, this.options.isDisabled?.(entry.name) === true);
  }

  /**
   * Starts connecting every server at once, without waiting. When one has settled, listeners are
   * told if the tools offered changed (a late server, a list unlike the remembered one, a failure).
   */
  startAll(): void {
    for (const connection of this.connections) this.start(connection);
  }

  private start(connection: McpServerConnection): Promise<void> {
    let started = this.started.get(connection);
    if (!started) {
      started = this.afterSettling(connection, connection.connect());
      this.started.set(connection, started);
    }
    return started;
  }

  /** Once `attempt` has ended: the session hears of the server, listeners of a changed tool list. */
  private async afterSettling(connection: McpServerConnection, attempt: Promise<void>): Promise<void> {
    await attempt;
    // A server removed or replaced meanwhile is nobody's concern any more.
    if (this.closed || !this.connections.includes(connection)) return;
    this.options.onServerSettled?.(connection);
    this.notifyIfChanged();
  }

  /**
   * Adds a server at run time (the SDK's mcp_set_servers, an approval in /mcp), replacing one of
   * the same name. Resolves once it has connected or failed (at most MCP_TIMEOUT); never throws
   * for the server's own failure: see its status.
   */
  async addServer(entry: McpServerEntry): Promise<McpServerSnapshot> {
    if (this.closed) throw new Error("the session's MCP servers are shut down");
    await this.removeServer(entry.name);
    const connection = this.newConnection(entry);
    this.connections.push(connection);
    this.connections.sort(byName);
    connection.startProcess();
    await this.start(connection);
    return this.snapshotOf(connection);
  }

  /** Stops a server and takes its tools out of the pool. False when there is none of that name. */
  async removeServer(name: string): Promise<boolean> {
    const index = this.connections.findIndex((c) => c.name === name);
    if (index < 0) return false;
    const [connection] = this.connections.splice(index, 1) as [McpServerConnection];
    this.started.delete(connection);
    this.toolsByServer.delete(name);
    this.authTools.delete(name);
    this.remembered.delete(name);
    this.notifyIfChanged();
    await connection.close();
    return true;
  }

  /**
   * Drops a server's connection and process and connects it afresh. Throws when there is no such
   * server, when it is turned off, or when it could not be connected (with the reason).
   */
  async reconnect(name: string): Promise<McpServerSnapshot> {
    const connection = this.requireConnection(name);
    if (connection.isDisabledByUser) throw new Error(`MCP server "${name}" is disabled; enable it first`);
    if (!connection.entry.config) throw new Error(`MCP server "${name}" cannot run: ${connection.error}`);
    await this.afterSettling(connection, connection.reconnect());
    return this.failIfNotConnected(connection);
  }

  /**
   * Turns a server off (its process ends, its tools leave the model's list, told as a delta) or on
   * again (connected anew; throws when that fails, the server staying on).
   */
  async setEnabled(name: string, enabled: boolean): Promise<McpServerSnapshot> {
    const connection = this.requireConnection(name);
    if (!enabled) {
      await connection.disable();
      this.notifyIfChanged();
      return this.snapshotOf(connection);
    }
    if (!connection.entry.config) throw new Error(`MCP server "${name}" cannot run: ${connection.error}`);
    if (!connection.isDisabledByUser) return this.snapshotOf(connection);
    await this.afterSettling(connection, connection.enable());
    return this.failIfNotConnected(connection);
  }

  private failIfNotConnected(connection: McpServerConnection): McpServerSnapshot {
    const snapshot = this.snapshotOf(connection);
    if (snapshot.state === "connected") return snapshot;
    throw new Error(`MCP server "${connection.name}" is ${snapshot.state}: ${snapshot.error ?? "no reason given"}`);
  }

  /** Every server as it stands now, with its tools and what it said it is. */
  snapshots(): McpServerSnapshot[] {
    return this.connections.map((c) => this.snapshotOf(c));
  }

  private snapshotOf(connection: McpServerConnection): McpServerSnapshot {
    return {
      ...connection.status(),
      tools: connection.tools,
      ...(connection.entry.config && { config: connection.entry.config }),
      disabledByUser: connection.isDisabledByUser,
    };
  }

  /** Connects every server at once; resolves when each has connected or failed. Never throws. */
  async connectAll(): Promise<void> {
    await Promise.all(this.connections.map((c) => this.start(c)));
  }

  /** Resolves when the named servers have connected or failed (each at most MCP_TIMEOUT). */
  async settled(names: readonly string[]): Promise<void> {
    await Promise.all(this.connections.filter((c) => names.includes(c.name)).map((c) => this.start(c)));
  }

  /** Whether this server's tools are offered from the last session's memory (it is still connecting). */
  isRemembered(name: string): boolean {
    return this.remembered.has(name);
  }

  /** The session's folders changed: every connected server that asked for roots is told. */
  async rootsChanged(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.rootsChanged()));
  }

  statuses(): McpServerStatus[] {
    return this.connections.map((c) => c.status());
  }

  /** The servers whose sign-in page waits for the user now (closing the manager closes them). */
  openSignIns(): string[] {
    return this.connections.filter((c) => c.hasOpenSignIn()).map((c) => c.name);
  }

  connection(name: string): McpServerConnection | undefined {
    return this.connections.find((c) => c.name === name);
  }

  /** What a server offers now: its live list, or the remembered one while it is still connecting. */
  private offeredDefinitions(connection: McpServerConnection): readonly McpToolDefinition[] | undefined {
    // A server that went away keeps its tools: the next call reconnects it.
    if (connection.isConnected() || connection.state === "disconnected") return connection.tools;
    const remembered = this.remembered.get(connection.name);
    // Only before its first connection has settled: a server that failed offers nothing.
    if (connection.state === "pending" && remembered && !connection.hasSettledOnce()) return remembered.tools;
    return undefined;
  }

  /**
   * The MCP tools to add to the pool: every tool of every connected server (or of a remembered one
   * still connecting), plus ListMcpResources / ReadMcpResource when some server offers resources.
   */
  tools(): AnyTool[] {
    const tools: AnyTool[] = [];
    for (const connection of this.connections) {
      if (connection.state === "needs-auth") {
        tools.push(this.authToolFor(connection));
        continue;
      }
      const defs = this.offeredDefinitions(connection);
      if (!defs) continue;
      let offered = this.toolsByServer.get(connection.name);
      if (!offered || offered.defs !== defs) {
        const remembered = this.remembered.get(connection.name);
        const hash = remembered && defs === remembered.tools ? remembered.toolsHash : hashToolDefinitions(defs);
        // The same definitions as before (the live list equals the remembered one): same tool objects.
        offered =
          offered && offered.hash === hash
            ? { ...offered, defs }
            : { defs, hash, tools: defs.map((def) => createMcpTool(connection, def)) };
        this.toolsByServer.set(connection.name, offered);
      }
      tools.push(...offered.tools);
    }
    if (this.resourceServers().length > 0) tools.push(...this.resourceTools);
    return tools;
  }

  private authToolFor(connection: McpServerConnection): AnyTool {
    let tool = this.authTools.get(connection.name);
    const config = connection.entry.config;
    if (!tool && config && config.type !== "stdio") {
      tool = createMcpAuthTool({
        serverName: connection.name,
        transport: config.type,
        url: config.url,
        startAuthentication: () => connection.startAuthentication(),
      });
      this.authTools.set(connection.name, tool);
    }
    return tool as AnyTool;
  }

  /**
   * Called with the new tool list whenever a server's tools change (list_changed, reconnect, a
   * server settling with a list unlike the one offered). `given` is the list the listener already
   * has: when the tools changed since, it is told at once.
   */
  onToolsChanged(listener: ToolsChangedListener, given?: readonly AnyTool[]): () => void {
    this.listeners.add(listener);
    if (given) {
      this.lastTold = given;
      this.notifyIfChanged();
    }
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    const tools = this.tools();
    this.lastTold = tools;
    for (const listener of this.listeners) listener(tools);
  }

  private notifyIfChanged(): void {
    if (this.listeners.size === 0) return;
    const tools = this.tools();
    const told = this.lastTold;
    if (told && told.length === tools.length && told.every((tool, i) => tool === tools[i])) return;
    this.notify();
  }

  /** Servers' instructions for the model, by server, in configuration order (remembered while connecting). */
  instructions(): Array<{ server: string; text: string }> {
    const found: Array<{ server: string; text: string }> = [];
    for (const connection of this.connections) {
      const remembered = this.remembered.get(connection.name);
      const text =
        connection.state === "pending" && !connection.hasSettledOnce()
          ? remembered?.instructions
          : connection.instructions;
      if (text) found.push({ server: connection.name, text });
    }
    return found;
  }

  resourceServers(): string[] {
    return this.connections
      .filter((c) =>
        c.state === "pending" && !c.hasSettledOnce()
          ? this.remembered.get(c.name)?.resources === true
          : c.supportsResources,
      )
      .map((c) => c.name);
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
    this.closed = true;
    this.listeners.clear();
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
