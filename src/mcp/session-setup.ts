// The one call a session makes to get its MCP servers: read the configuration, start the servers,
// and hand back their tools and a close() that ends every child process. The first request waits
// for no server whose tools the project's last session remembers (remembered-tools.ts): it names
// the remembered tools, and the server is started and connected in the background (after
// `handshakeAfter`); when its live list differs, the session hears only the change. Servers not
// remembered start at once and are waited for, at most WARDEN_MCP_STARTUP_WAIT_MS, then the session
// goes on without them and says so. Failures are reported as they happen.
import { type LoadedSettings, loadSettings, settingsEnv } from "../config/settings.js";
import type { Message } from "../messages/types.js";
import type { AppState, McpServerInstructions } from "../tool/app-state.js";
import { loadedToolNamesFromMessages } from "../tool/loaded-tools-record.js";
import { isToolSearchMode, resolveToolSearchMode, type ToolSearchMode } from "../tool/tool-search-mode.js";
import type { AnyTool } from "../tool/types.js";
import type { McpClientFeatures } from "./client-features/index.js";
import { loadMcpServerEntries, serversDisabledForProject } from "./config-sources.js";
import type { McpServerStatus } from "./connection-types.js";
import { createLiveControl, type McpLiveControl } from "./live-control.js";
import type { McpClientManager, McpClientManagerOptions } from "./manager.js";
import { hashServerConfig, hashToolDefinitions, loadRememberedTools, rememberServerTools } from "./remembered-tools.js";
import { mcpStartupWaitMs } from "./timeouts.js";

export interface McpSessionOptions {
  cwd: string;
  /** `--mcp-config` values (files or inline JSON). */
  mcpConfig: readonly string[];
  /** `--settings` value, when given. */
  settings?: string;
  /**
   * The session's settings when the caller has already read them (the CLI reads them once for
   * the permission engine); then no settings file is read here again.
   */
  loadedSettings?: LoadedSettings;
  /** Where problems are reported (stderr in the CLI). */
  warn: (message: string) => void;
  /**
   * Variables for stdio servers' processes besides Warden's own environment. Default: settings
   * `env` of the files in force (an untrusted folder's are not among them).
   */
  env?: Readonly<Record<string, string>>;
  /** What servers may ask of the session besides tools (questions, completions, roots, logs). */
  features?: McpClientFeatures;
  /**
   * Servers whose tools are remembered are started (process, SDK, handshake) only after this
   * resolves: the CLI passes "the first request is on the wire", so that their start never delays
   * it. Default: at once.
   */
  handshakeAfter?: Promise<void>;
  /** `--strict-mcp-config`: only the servers of `mcpConfig`, none from settings or `.mcp.json`. */
  strict?: boolean;
}

/** A server as the headless init line shows it (the shape of Claude Code's `mcp_servers`). */
export interface McpServerSummary {
  name: string;
  status: string;
}

export interface McpSession {
  /** The MCP tools to add to the pool (mcp__server__tool, plus the resource tools when useful). */
  tools: AnyTool[];
  /** Each server and its state now. */
  readonly servers: McpServerSummary[];
  /** Adding, removing, reconnecting, turning off and approving servers while the session runs. */
  live: McpLiveControl;
  /** From env WARDEN_TOOL_SEARCH or settings `toolSearch`. */
  toolSearchMode: ToolSearchMode;
  /**
   * AppState to start the session with: the tool-search mode and, for a resumed conversation,
   * the deferred tools it had already loaded (so their schemas keep being sent).
   */
  initialAppState(resumedMessages?: readonly Message[]): Partial<AppState>;
  /** The connected servers' instructions, as a system-prompt section ("" when none sent any). */
  systemPromptSection: string;
  /**
   * Called with the new MCP tool list (and the servers' instructions, capped) when the tools
   * offered change: a late server, a live list unlike the remembered one, a failure, list_changed.
   */
  onToolsChanged(listener: (tools: AnyTool[], instructions: McpServerInstructions[]) => void): void;
  /** The session's folders changed (a worktree, an added directory): servers are told. */
  rootsChanged(): Promise<void>;
  /** Servers whose sign-in page (McpAuth) still waits for the user: close() gives them up. */
  openSignIns(): string[];
  close(): Promise<void>;
}

/** Claude Code's cap for one server's instructions: a server must not crowd out the rest of the prompt. */
export const MAX_SERVER_INSTRUCTIONS_CHARS = 2048;

/** Each server's instructions, capped in length, as the model is given them. */
export function cappedInstructions(
  instructions: ReadonlyArray<{ server: string; text: string }>,
): Array<{ server: string; text: string }> {
  return instructions.map(({ server, text }) => ({
    server,
    text: text.length > MAX_SERVER_INSTRUCTIONS_CHARS ? `${text.slice(0, MAX_SERVER_INSTRUCTIONS_CHARS)}… [cut]` : text,
  }));
}

/** Servers' instructions for the model, each under its server's name, capped in length. */
export function instructionsSection(instructions: ReadonlyArray<{ server: string; text: string }>): string {
  if (instructions.length === 0) return "";
  const parts = cappedInstructions(instructions).map(({ server, text }) => `## ${server}\n${text}`);
  return `# MCP server instructions\nThe connected MCP servers describe how to use their tools:\n\n${parts.join("\n\n")}`;
}

function summary(status: McpServerStatus): McpServerSummary {
  return { name: status.name, status: status.state };
}

function readSettings(options: McpSessionOptions): LoadedSettings | undefined {
  if (options.loadedSettings) return options.loadedSettings;
  try {
    return loadSettings({ cwd: options.cwd, extraSettings: options.settings ? [options.settings] : [] });
  } catch (error) {
    // The permission layer refuses to start on the same error; here it only costs settings servers.
    options.warn(`MCP servers from settings skipped: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function settingsToolSearch(settings: LoadedSettings | undefined): unknown {
  let value: unknown;
  for (const file of settings?.files ?? [])
    if (file.settings.toolSearch !== undefined) value = file.settings.toolSearch;
  return value;
}

export async function connectMcpForSession(options: McpSessionOptions): Promise<McpSession> {
  const settings = readSettings(options);
  const configuredMode = settingsToolSearch(settings);
  if (configuredMode !== undefined && !isToolSearchMode(configuredMode)) {
    options.warn(
      `settings toolSearch must be "defer", "never" or "auto", not ${JSON.stringify(configuredMode)}; using the default`,
    );
  }
  const toolSearchMode = resolveToolSearchMode(configuredMode);
  const load = loadMcpServerEntries({
    cwd: options.cwd,
    mcpConfigArgs: [...options.mcpConfig],
    settings,
    strict: options.strict,
  });
  for (const problem of load.fileProblems) options.warn(`MCP config: ${problem}`);
  let instructions: Array<{ server: string; text: string }> = [];
  const initialAppState = (resumedMessages?: readonly Message[]): Partial<AppState> => {
    const loaded = resumedMessages ? loadedToolNamesFromMessages(resumedMessages) : [];
    const state: Partial<AppState> =
      loaded.length > 0 ? { toolSearchMode, loadedDeferredTools: loaded } : { toolSearchMode };
    // The same instructions as the system prompt's section: later changes are told as a delta.
    if (instructions.length > 0) state.mcpInstructions = instructions;
    return state;
  };
  const disabledForProject = serversDisabledForProject(settings);
  const remembered = loadRememberedTools(options.cwd, load.servers);
  let startupReported = false;
  const reported = new Set<string>();
  const reportFailure = (status: McpServerStatus) => {
    if (status.state !== "failed" && status.state !== "disabled") return;
    // Turned off by the user on purpose: no news.
    if (status.state === "disabled" && disabledForProject.has(status.name) && !status.error) return;
    if (reported.has(status.name)) return;
    reported.add(status.name);
    options.warn(
      `MCP server "${status.name}" (${status.origin}) is ${status.state}: ${status.error ?? "no reason given"}`,
    );
  };
  const env = options.env ?? settingsEnv(settings?.files ?? []);
  const managerOptions: McpClientManagerOptions = {
    cwd: options.cwd,
    env,
    ...(options.features && { features: options.features }),
    remembered,
    isDisabled: (name) => disabledForProject.has(name),
    onServerSettled: (connection) => {
      if (connection.isConnected() && connection.entry.config) {
        const tools = [...connection.tools];
        const entry = {
          configHash: hashServerConfig(connection.entry.config),
          toolsHash: hashToolDefinitions(tools),
          tools,
          ...(connection.instructions ? { instructions: connection.instructions } : {}),
          ...(connection.supportsResources ? { resources: true } : {}),
        };
        const old = remembered.get(connection.name);
        const same =
          old?.configHash === entry.configHash &&
          old.toolsHash === entry.toolsHash &&
          old.instructions === entry.instructions &&
          (old.resources === true) === (entry.resources === true);
        if (!same) rememberServerTools(options.cwd, connection.name, entry);
      }
      // Failures before the session starts are reported with the others, below; later ones now.
      if (startupReported) reportFailure(connection.status());
    },
  };
  const listeners: Array<(tools: AnyTool[], instructions: McpServerInstructions[]) => void> = [];
  let manager: McpClientManager | undefined;
  let making: Promise<McpClientManager> | undefined;
  const live = createLiveControl(
    {
      cwd: options.cwd,
      // A session that started with no server gets its manager (and the MCP SDK) at the first one added.
      manager: () => {
        if (manager) return Promise.resolve(manager);
        making ??= import("./manager.js").then(({ McpClientManager }) => {
          const made = new McpClientManager([], managerOptions);
          listenTo(made, []);
          manager = made;
          return made;
        });
        return making;
      },
      configuredEntry: (name, approved) =>
        loadMcpServerEntries({
          cwd: options.cwd,
          mcpConfigArgs: [...options.mcpConfig],
          settings,
          strict: options.strict,
          approvedNow: approved,
        }).servers.find((entry) => entry.name === name),
      disabledForProject,
    },
    () => manager,
  );
  const listenTo = (made: McpClientManager, given: readonly AnyTool[]) =>
    void made.onToolsChanged((changed) => {
      const instructions = cappedInstructions(made.instructions());
      for (const listener of listeners) listener(changed, instructions);
    }, given);
  const session = (tools: AnyTool[], systemPromptSection: string): McpSession => ({
    tools,
    get servers() {
      return manager?.statuses().map(summary) ?? [];
    },
    live,
    toolSearchMode,
    initialAppState,
    systemPromptSection,
    onToolsChanged: (listener) => void listeners.push(listener),
    rootsChanged: async () => manager?.rootsChanged(),
    openSignIns: () => manager?.openSignIns() ?? [],
    close: async () => manager?.close(),
  });
  if (load.servers.length === 0) return session([], "");

  const { McpClientManager } = await import("./manager.js");
  const started = new McpClientManager(load.servers, managerOptions);
  manager = started;
  const waited = load.servers
    .filter((s) => s.config && !remembered.has(s.name) && !disabledForProject.has(s.name))
    .map((s) => s.name);
  const rememberedNames = load.servers.filter((s) => remembered.has(s.name)).map((s) => s.name);
  const startNow = (names: readonly string[]) => {
    for (const name of names) started.connection(name)?.startProcess();
    void started.settled(names);
  };
  // Servers the session waits for start at once. A remembered server starts (its process, the
  // SDK, the handshake) only once the first request is on the wire: a spawn blocks the thread
  // several milliseconds (the orphan guard's watcher is a second one), and the server's own boot
  // would compete with the session's start-up for the CPU. It boots while the model reads the
  // request; a call that comes before it is ready waits for it (McpServerConnection.liveClient).
  startNow(waited);
  if (options.handshakeAfter) void options.handshakeAfter.then(() => startNow(rememberedNames));
  else startNow(rememberedNames);
  if (waited.length > 0) {
    const waitMs = mcpStartupWaitMs();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      manager.settled(waited),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
    for (const status of manager.statuses()) {
      if (status.state === "pending" && waited.includes(status.name)) {
        options.warn(
          `MCP server "${status.name}" (${status.origin}) is still starting after ${waitMs} ms (WARDEN_MCP_STARTUP_WAIT_MS); the session goes on without it, and its tools are offered once it connects`,
        );
      }
    }
  }
  for (const status of manager.statuses()) reportFailure(status);
  startupReported = true;
  instructions = cappedInstructions(manager.instructions());
  const tools = manager.tools();
  listenTo(manager, tools);
  return session(tools, instructionsSection(manager.instructions()));
}
