// One MCP server: its state, connecting once at a time (handshake.ts), listing its tools again
// when it says they changed, calling them, reading its resources, and coming back after a crash on
// the next use. Nothing here throws at the session: failures become a state and a message.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  CallToolResult,
  Tool as McpToolDefinition,
  ReadResourceResult,
  Resource,
} from "@modelcontextprotocol/sdk/types.js";
import type { LoginStarted } from "./auth/flow.js";
import { explainCallError, isUnauthorized, messageOf } from "./call-errors.js";
import { untrackChild } from "./child-registry.js";
import type { McpServerConfig, McpServerEntry } from "./config.js";
import type { ConnectionOptions, McpCallOptions, McpServerState, McpServerStatus } from "./connection-types.js";
import { handshake, listAllTools, oauthProviderFor } from "./handshake.js";
import { StdioServerProcess } from "./stdio-child.js";
import { type CreatedTransport, stdioLaunch } from "./transport.js";
import { closeTransport } from "./transport-close.js";

export class McpServerConnection {
  readonly name: string;
  private stateValue: McpServerState;
  private errorValue: string | undefined;
  private client: Client | undefined;
  private created: CreatedTransport | undefined;
  private toolDefs: McpToolDefinition[] = [];
  private connecting: Promise<void> | undefined;
  private closing = false;
  /** The sign-in page now handed out (McpAuth, `warden mcp login`), until signed in, failed or closed. */
  private signInWindow: AbortController | undefined;
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
    let signInWanted = () => false;
    try {
      const authProvider = await oauthProviderFor(this.name, config);
      signInWanted = () => authProvider?.needsUserSignIn === true;
      const tools = await handshake({
        name: this.name,
        config,
        cwd: this.options.cwd,
        ...(this.options.env && { env: this.options.env }),
        features: this.options.features ?? {},
        timeoutMs: this.options.connectTimeoutMs,
        ...(this.early && { early: this.early }),
        ...(authProvider && { authProvider }),
        onToolsListChanged: () => void this.refreshTools(),
        adopt: (client, created) => {
          this.early = undefined;
          this.client = client;
          this.created = created;
          client.onclose = () => this.onClosed(client);
        },
        isClosing: () => this.closing,
      });
      this.toolDefs = tools;
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
      this.settledOnce = true;
    }
  }

  /** list_changed: fetch the list again and tell the pool. A failed refresh keeps the old list. */
  async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client || this.stateValue !== "connected") return;
    try {
      this.toolDefs = await listAllTools(client, this.options.connectTimeoutMs);
      this.options.onToolsChanged?.();
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
        this.options.onToolsChanged?.();
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
    const explained = explainCallError(error, {
      server: this.name,
      what,
      timeoutMs,
      ...(signal && { signal }),
      state: this.stateValue,
      remote: this.isRemote(),
      stderr: () => this.created?.stderr.toString(),
    });
    if (explained.unreachable !== undefined) {
      this.stateValue = "disconnected";
      this.errorValue = explained.unreachable;
    }
    return explained.error;
  }

  private isRemote(): boolean {
    return this.entry.config?.type === "http" || this.entry.config?.type === "sse";
  }

  private async dropTransport(): Promise<void> {
    const open = { client: this.client, created: this.created, early: this.early };
    this.early = undefined;
    this.client = undefined;
    this.created = undefined;
    await closeTransport(open);
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
    // One window at a time: a second call starts afresh (the first page's state no longer counts).
    this.signInWindow?.abort(new Error(`a newer sign-in to "${this.name}" replaced this one`));
    const window = new AbortController();
    this.signInWindow = window;
    const started = await startLogin({ name: this.name, serverUrl: config.url, signal: window.signal });
    const reconnect = async () => {
      await this.dropTransport();
      await this.connect();
      this.options.onToolsChanged?.();
    };
    if (started === "already") {
      if (this.signInWindow === window) this.signInWindow = undefined;
      await reconnect();
      return started;
    }
    const done = started.done.then(reconnect).finally(() => {
      if (this.signInWindow === window) this.signInWindow = undefined;
    });
    // Whoever started it may never wait for the end (McpAuth returns the page at once): a sign-in
    // that fails or is closed must not become an unhandled rejection, which would end the process.
    done.catch(() => undefined);
    return { ...started, done };
  }

  /** True while a sign-in page handed out by startAuthentication waits for the user. */
  hasOpenSignIn(): boolean {
    return this.signInWindow !== undefined;
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
    // An open sign-in window holds a listener and a timer of its own: it ends with the session.
    this.signInWindow?.abort(new Error(`the session ended before anyone signed in to "${this.name}"`));
    this.signInWindow = undefined;
    // First what exists now: a handshake still waiting on the server then fails at once, instead
    // of holding the session's exit for up to MCP_TIMEOUT; then whatever it created meanwhile.
    await this.dropTransport();
    await this.connecting?.catch(() => undefined);
    await this.dropTransport();
    if (this.stateValue !== "disabled") this.stateValue = "closed";
  }
}
