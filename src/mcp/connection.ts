// One MCP server: connecting with a time limit, listing its tools (again when it says they
// changed), calling them, reading its resources, and coming back after a crash on the next use.
// Nothing here throws at the session: failures become a state and a message.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  CallToolResult,
  Tool as McpToolDefinition,
  ReadResourceResult,
  Resource,
} from "@modelcontextprotocol/sdk/types.js";
import type { LoginStarted } from "./auth/flow.js";
import type { WardenOAuthProvider } from "./auth/provider.js";
import { hasServerAuth } from "./auth/store.js";
import { untrackChild } from "./child-registry.js";
import {
  applyServerLogLevel,
  clientCapabilities,
  installClientFeatures,
  type McpClientFeatures,
} from "./client-features/index.js";
import type { McpConfigScope, McpServerConfig, McpServerEntry } from "./config.js";
import { StdioServerProcess } from "./stdio-child.js";
import { type CreatedTransport, createTransport, stdioLaunch } from "./transport.js";

export type McpServerState = "pending" | "connected" | "failed" | "needs-auth" | "disconnected" | "disabled" | "closed";

export interface McpServerStatus {
  name: string;
  scope: McpConfigScope;
  origin: string;
  transport?: McpServerConfig["type"];
  state: McpServerState;
  error?: string;
  toolCount: number;
  supportsResources: boolean;
  /** What the server called itself at the handshake, while connected. */
  serverInfo?: { name: string; version: string };
}

export interface ConnectionOptions {
  cwd: string;
  /** Variables the session adds to the processes it starts (settings `env`), for stdio servers. */
  env?: Readonly<Record<string, string>>;
  connectTimeoutMs: number;
  toolTimeoutMs: number;
  /** Called after the server's tool list was fetched again (list_changed, reconnect). */
  onToolsChanged?: (connection: McpServerConnection) => void;
  /** What servers may ask of the session besides tools (questions, completions, roots, logs). */
  features?: McpClientFeatures;
}

export interface McpCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

const CLIENT_INFO = { name: "warden", version: "0.1.0" };
const STDIO_EXIT_GRACE_MS = 200;

function signalIfAlive(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already exited.
  }
}

/** JSON-RPC errors are answers from a live server (bad params, tool failure); anything else is transport trouble. */
function isJsonRpcErrorCode(code: unknown): boolean {
  return typeof code === "number" && code < 0;
}

/** The server turned us away for want of credentials (HTTP 401, or the SDK's auth gave up). */
function isUnauthorized(error: unknown, signInWanted: boolean): boolean {
  if (signInWanted) return true;
  const code = (error as { code?: unknown }).code;
  if (code === 401) return true;
  return error instanceof Error && /\bUnauthorized\b|\b401\b/.test(error.message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class McpServerConnection {
  readonly name: string;
  private stateValue: McpServerState;
  private errorValue: string | undefined;
  private client: Client | undefined;
  private created: CreatedTransport | undefined;
  private toolDefs: McpToolDefinition[] = [];
  private connecting: Promise<void> | undefined;
  private closing = false;
  /** A stdio server's process started before connecting (startProcess), not yet taken over. */
  private early: StdioServerProcess | undefined;
  /** Set when the first connection attempt has ended, connected or not. */
  private settledOnce = false;
  /** Turned off by the user (/mcp, the SDK's mcp_toggle, or for the project): not connected until enable(). */
  private userDisabled = false;

  /**
   * `startDisabled`: the user turned this server off for the project (settings
   * `disabledMcpServers`): nothing is started until enable().
   */
  constructor(
    readonly entry: McpServerEntry,
    private readonly options: ConnectionOptions,
    startDisabled = false,
  ) {
    this.name = entry.name;
    this.userDisabled = startDisabled && entry.config !== undefined;
    this.stateValue = entry.config && !this.userDisabled ? "pending" : "disabled";
    this.errorValue = entry.problem;
  }

  get state(): McpServerState {
    return this.stateValue;
  }

  get error(): string | undefined {
    return this.errorValue;
  }

  /** The server's tools as it described them (schemas untouched). */
  get tools(): readonly McpToolDefinition[] {
    return this.toolDefs;
  }

  /** What the server asks its clients to tell the model (initialize's `instructions`), when connected. */
  get instructions(): string | undefined {
    return this.stateValue === "connected" ? this.client?.getInstructions()?.trim() || undefined : undefined;
  }

  get supportsResources(): boolean {
    return this.stateValue === "connected" && this.client?.getServerCapabilities()?.resources !== undefined;
  }

  /** What the server called itself at the handshake (name, version), while connected. */
  get serverInfo(): { name: string; version: string } | undefined {
    if (this.stateValue !== "connected") return undefined;
    const info = this.client?.getServerVersion();
    return info ? { name: info.name, version: info.version } : undefined;
  }

  /** Whether the first attempt to connect has ended (until then a remembered tool list may stand in). */
  hasSettledOnce(): boolean {
    return this.settledOnce;
  }

  /** A method, not a field read, so callers re-read the state after an await. */
  isConnected(): boolean {
    return this.stateValue === "connected";
  }

  status(): McpServerStatus {
    return {
      name: this.name,
      scope: this.entry.scope,
      origin: this.entry.origin,
      transport: this.entry.config?.type ?? this.entry.transport,
      state: this.stateValue,
      error: this.errorValue,
      toolCount: this.toolDefs.length,
      supportsResources: this.supportsResources,
      ...(this.serverInfo && { serverInfo: this.serverInfo }),
    };
  }

  /**
   * Starts a stdio server's process now, without loading the SDK or talking to it: connect()
   * later takes it over. Lets a session start its servers first thing and finish connecting when
   * it suits. Nothing for remote servers. Never throws: a failed spawn surfaces in connect().
   */
  startProcess(): void {
    const config = this.entry.config;
    if (config?.type !== "stdio" || this.early || this.created || this.closing || this.userDisabled) return;
    this.early = new StdioServerProcess(stdioLaunch(config, this.options.cwd, this.options.env));
  }

  /** Connects (once at a time) and lists the tools. Never throws: see state and error. */
  connect(): Promise<void> {
    if (!this.entry.config || this.closing || this.userDisabled) return Promise.resolve();
    // Already connected: a second caller (a tool call racing the session's own start) has nothing to do.
    if (this.stateValue === "connected" && !this.connecting) return Promise.resolve();
    this.connecting ??= this.connectOnce(this.entry.config).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connectOnce(config: McpServerConfig): Promise<void> {
    this.stateValue = "pending";
    this.errorValue = undefined;
    const timeoutMs = this.options.connectTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let signInWanted = () => false;
    try {
      const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
      const features = this.options.features ?? {};
      const client = new Client(CLIENT_INFO, {
        capabilities: clientCapabilities(features),
        listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => void this.refreshTools() } },
      });
      await installClientFeatures(client, this.name, features);
      if (this.closing) throw new Error("the session is closing");
      // Credentials only when a login left some: a server without them costs no auth code at all.
      let authProvider: WardenOAuthProvider | undefined;
      if (config.type !== "stdio" && hasServerAuth(this.name, config.url)) {
        const { WardenOAuthProvider } = await import("./auth/provider.js");
        authProvider = new WardenOAuthProvider({ name: this.name, serverUrl: config.url });
      }
      signInWanted = () => authProvider?.needsUserSignIn === true;
      const created = await createTransport(config, this.options.cwd, this.early, this.options.env, authProvider);
      this.early = undefined;
      this.client = client;
      this.created = created;
      if (this.closing) throw new Error("the session is closing");
      client.onclose = () => this.onClosed(client);
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`did not finish connecting within ${timeoutMs} ms (MCP_TIMEOUT)`)),
          timeoutMs,
        );
      });
      await Promise.race([client.connect(created.transport, { timeout: timeoutMs }), timedOut]);
      this.toolDefs = await Promise.race([this.fetchTools(client, timeoutMs), timedOut]);
      await Promise.race([applyServerLogLevel(client, features, timeoutMs), timedOut]);
      if (this.closing) return;
      this.stateValue = "connected";
    } catch (error) {
      const stderr = this.created?.stderr.toString();
      if (this.isRemote() && isUnauthorized(error, signInWanted())) {
        this.stateValue = "needs-auth";
        this.errorValue = `needs authentication: run \`warden mcp login ${this.name}\`, or let the model call mcp__${this.name}__authenticate`;
        this.toolDefs = [];
        await this.dropTransport();
        return;
      }
      this.errorValue = `${messageOf(error)}${stderr ? `\nserver stderr: ${stderr.slice(-600)}` : ""}`;
      this.stateValue = "failed";
      this.toolDefs = [];
      await this.dropTransport();
    } finally {
      clearTimeout(timer);
      this.settledOnce = true;
    }
  }

  private async fetchTools(client: Client, timeoutMs: number): Promise<McpToolDefinition[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const all: McpToolDefinition[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }

  /** list_changed: fetch the list again and tell the pool. A failed refresh keeps the old list. */
  async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client || this.stateValue !== "connected") return;
    try {
      this.toolDefs = await this.fetchTools(client, this.options.connectTimeoutMs);
      this.options.onToolsChanged?.(this);
    } catch (error) {
      this.errorValue = `refreshing the tool list failed: ${messageOf(error)}`;
    }
  }

  private onClosed(client: Client): void {
    if (client !== this.client || this.closing) return;
    const pid = this.created?.pid();
    if (pid) untrackChild(pid);
    if (this.stateValue === "connected") {
      const stderr = this.created?.stderr.toString();
      this.stateValue = "disconnected";
      this.errorValue = `connection closed${stderr ? `; server stderr: ${stderr.slice(-600)}` : ""}`;
    }
  }

  /** The live client, reconnecting first when the server went away since the last use. */
  private async liveClient(): Promise<Client> {
    if (this.closing) throw new Error(`MCP server "${this.name}" is shut down`);
    if (this.stateValue === "disconnected" || this.stateValue === "failed") {
      await this.dropTransport();
      const before = this.toolDefs.map((t) => t.name).join("\n");
      await this.connect();
      if (this.isConnected() && this.toolDefs.map((t) => t.name).join("\n") !== before) {
        this.options.onToolsChanged?.(this);
      }
    } else if (this.connecting) {
      await this.connecting;
    } else if (this.stateValue === "pending") {
      // Offered from the last session's memory, its handshake not begun yet: begin it now.
      await this.connect();
    }
    if (this.stateValue !== "connected" || !this.client) {
      throw new Error(`MCP server "${this.name}" is not connected${this.errorValue ? `: ${this.errorValue}` : ""}`);
    }
    return this.client;
  }

  async callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {},
  ): Promise<CallToolResult> {
    const client = await this.liveClient();
    // A tool remembered from the last session (or offered before a list_changed) that the server
    // no longer lists: say so, rather than send the server a call it will not understand.
    if (!this.toolDefs.some((def) => def.name === toolName)) {
      throw new Error(
        `MCP server "${this.name}" no longer offers the tool "${toolName}" (its tool list changed since the tool was offered)`,
      );
    }
    const timeoutMs = this.options.toolTimeoutMs;
    try {
      const result = await client.callTool({ name: toolName, arguments: args }, undefined, {
        timeout: timeoutMs,
        signal: options.signal,
        onprogress: options.onProgress,
      });
      return result as CallToolResult;
    } catch (error) {
      throw this.explainCallError(error, `tool ${toolName}`, timeoutMs, options.signal);
    }
  }

  /** Tells the server the session's folders changed (it asks for roots again). */
  async rootsChanged(): Promise<void> {
    if (this.stateValue !== "connected" || !this.client || !this.options.features?.roots) return;
    try {
      await this.client.sendRootsListChanged();
    } catch {
      // A server that went away is reconnected on its next use, and asks for roots then.
    }
  }

  async listResources(): Promise<Resource[]> {
    const client = await this.liveClient();
    if (!client.getServerCapabilities()?.resources) return [];
    const all: Resource[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.listResources(cursor ? { cursor } : undefined, {
          timeout: this.options.toolTimeoutMs,
        });
        all.push(...page.resources);
        cursor = page.nextCursor;
      } while (cursor);
    } catch (error) {
      throw this.explainCallError(error, "resources/list", this.options.toolTimeoutMs);
    }
    return all;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = await this.liveClient();
    try {
      return await client.readResource({ uri }, { timeout: this.options.toolTimeoutMs, signal });
    } catch (error) {
      throw this.explainCallError(error, `resource ${uri}`, this.options.toolTimeoutMs, signal);
    }
  }

  /** Turns SDK errors into messages that say which server, what happened and what to do. */
  private explainCallError(error: unknown, what: string, timeoutMs: number, signal?: AbortSignal): Error {
    if (signal?.aborted) return new Error(`MCP ${what} on "${this.name}" was cancelled`);
    const code = (error as { code?: unknown }).code;
    // -32001 RequestTimeout, -32000 ConnectionClosed (the SDK's ErrorCode values).
    if (code === -32001) {
      return new Error(`MCP ${what} on server "${this.name}" did not answer within ${timeoutMs} ms (MCP_TOOL_TIMEOUT)`);
    }
    if (code === -32000 || this.stateValue === "disconnected") {
      const stderr = this.created?.stderr.toString();
      return new Error(
        `MCP server "${this.name}" closed the connection during ${what} (it may have crashed; it will be restarted on the next use)${stderr ? `. Its stderr ended with: ${stderr.slice(-400)}` : ""}`,
      );
    }
    if (this.isRemote() && !isJsonRpcErrorCode(code) && this.stateValue === "connected") {
      // An HTTP server that went away (refused, reset, its session gone after a restart) does
      // not close our side: mark it so the next use connects afresh.
      this.stateValue = "disconnected";
      this.errorValue = messageOf(error);
      return new Error(
        `MCP server "${this.name}" could not be reached during ${what} (${messageOf(error)}); it will be reconnected on the next use`,
      );
    }
    return new Error(`MCP ${what} on server "${this.name}" failed: ${messageOf(error)}`);
  }

  private isRemote(): boolean {
    return this.entry.config?.type === "http" || this.entry.config?.type === "sse";
  }

  private async dropTransport(): Promise<void> {
    const early = this.early;
    this.early = undefined;
    if (early) {
      if (early.pid) untrackChild(early.pid);
      early.child.kill("SIGKILL");
    }
    const client = this.client;
    const created = this.created;
    this.client = undefined;
    this.created = undefined;
    const pid = created?.pid();
    // The SDK ends the child's stdin and then waits 2 s before SIGTERM; many servers never exit
    // on EOF, so every session would pause at exit. Give them a short grace, then SIGTERM.
    const term = pid ? setTimeout(() => signalIfAlive(pid, "SIGTERM"), STDIO_EXIT_GRACE_MS) : undefined;
    try {
      if (client) await client.close();
      else await created?.transport.close();
    } catch {
      // Closing a broken transport may fail; the child is killed below either way.
    } finally {
      clearTimeout(term);
    }
    if (pid) {
      untrackChild(pid);
      signalIfAlive(pid, "SIGKILL");
    }
  }

  /**
   * Starts signing in to a remote server (OAuth, src/mcp/auth/): resolves with the page the user
   * must open, or "already" when the stored credentials are accepted. Once the user has signed in,
   * the server is connected again and the pool told of its tools (`onToolsChanged`).
   */
  async startAuthentication(): Promise<LoginStarted | "already"> {
    const config = this.entry.config;
    if (!config || config.type === "stdio") throw new Error(`MCP server "${this.name}" does not use OAuth (stdio)`);
    const { startLogin } = await import("./auth/flow.js");
    const started = await startLogin({ name: this.name, serverUrl: config.url });
    const reconnect = async () => {
      await this.dropTransport();
      await this.connect();
      this.options.onToolsChanged?.(this);
    };
    if (started === "already") {
      await reconnect();
      return started;
    }
    return { ...started, done: started.done.then(reconnect) };
  }

  /**
   * Drops the connection (ending a stdio server's process) and connects afresh: the way back from
   * a crash or a hung server. Never throws: see state and error.
   */
  async reconnect(): Promise<void> {
    if (!this.entry.config || this.closing || this.userDisabled) return;
    await this.stopConnecting();
    this.stateValue = "pending";
    await this.connect();
  }

  /**
   * Stops the server and keeps it stopped for this session, until enable(): it offers no tools
   * meanwhile. A handshake under way is cut short rather than waited for.
   */
  async disable(): Promise<void> {
    if (this.userDisabled || !this.entry.config) return;
    this.userDisabled = true;
    await this.stopConnecting();
    this.toolDefs = [];
    this.stateValue = "disabled";
    this.errorValue = undefined;
  }

  /** Undoes disable(): connects again. Never throws: see state and error. */
  async enable(): Promise<void> {
    if (!this.userDisabled) return;
    this.userDisabled = false;
    this.stateValue = "pending";
    await this.connect();
  }

  /** Whether the user turned the server off (disable(), or for the project), as opposed to a configuration that cannot run. */
  get isDisabledByUser(): boolean {
    return this.userDisabled;
  }

  /** Ends the transport and any handshake under way, leaving the connection able to connect again. */
  private async stopConnecting(): Promise<void> {
    const wasClosing = this.closing;
    this.closing = true;
    try {
      await this.dropTransport();
      await this.connecting?.catch(() => undefined);
      await this.dropTransport();
    } finally {
      this.closing = wasClosing;
    }
  }

  /** Shuts the server down (the stdio child gets EOF, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.closing = true;
    // First what exists now: a handshake still waiting on the server then fails at once, instead
    // of holding the session's exit for up to MCP_TIMEOUT; then whatever it created meanwhile.
    await this.dropTransport();
    await this.connecting?.catch(() => undefined);
    await this.dropTransport();
    if (this.stateValue !== "disabled") this.stateValue = "closed";
  }
}
