// What the UI needs of a running session, given by the CLI (which wires the model, settings,
// permissions, hooks and MCP servers): the engine itself, prompts run under the session's hooks,
// and a way to open another session (/clear, /resume, /model).
import type { SessionCommands } from "../../control/session-commands.js";
import type { CompactOutcome } from "../../loop/context-manager.js";
import type { QueryEvent, TerminalEvent } from "../../loop/events.js";
import type { SessionEngine } from "../../loop/session.js";
import type { ToolResultBlock, ToolUseBlock } from "../../messages/types.js";
import type { AgentDefinition } from "../../tool/agents.js";
import type { CustomCommandInfo } from "../commands/custom-command-info.js";

export interface MentionOutcome {
  /** The mention as typed, without the `@`. */
  mention: string;
  /** The Read call made for it, and its result (an error result when Read refused or failed). */
  read?: { toolUse: ToolUseBlock; result: ToolResultBlock };
  /** Why nothing was read (no such file, a folder). */
  problem?: string;
}

export interface SessionHandle {
  engine: SessionEngine;
  /** What the UI changes in the session (mode, rules, folders, queued messages, interrupt): never setAppState. */
  commands: SessionCommands;
  /** A prompt run with the session's hooks (UserPromptSubmit, Stop...). */
  runPrompt(prompt: string): AsyncGenerator<QueryEvent, TerminalEvent | undefined>;
  /**
   * The turn an idle session takes, unprompted, for what arrived meanwhile: a background task's
   * end, a scheduled prompt, a message (`engine.wakeDue` says when; `engine.onWake` tells).
   */
  runWake(): AsyncGenerator<QueryEvent, TerminalEvent | undefined>;
  compact(instructions?: string): AsyncGenerator<QueryEvent, CompactOutcome>;
  /**
   * `!command`: runs the command through the Bash tool (the permission engine decides, as for the
   * model's calls); the command and its output join the conversation at the next prompt.
   */
  runShell(command: string, signal: AbortSignal): Promise<{ toolUse: ToolUseBlock; result: ToolResultBlock }>;
  /**
   * `@path` mentions of a prompt: each file read with the Read tool (the permission engine
   * decides) and queued for the model ahead of the prompt. What became of each, for the screen.
   */
  attachMentions(prompt: string, signal: AbortSignal): Promise<MentionOutcome[]>;
  /** Warnings for the person (a broken hook, an MCP server that did not start); the UI shows and empties it. */
  notices: string[];
  /** Lines shown dimmed as they arrive, even mid-prompt (MCP servers' warnings and errors). */
  liveNotices: LiveNotices;
  /** The agents the Agent tool can start in this session, for /agents. */
  agents: readonly AgentDefinition[];
  /** The user's and the project's commands and skills as the folders hold them now (read again at each call). */
  customCommands(): Promise<readonly CustomCommandInfo[]>;
  /** MCP servers as they stand now, and what /mcp can do with them. */
  mcp: McpServersControl;
  /** The output style in force, by name ("default" when none); /output-style lists the others. */
  outputStyle?: string;
  /** The settings' `statusLine` command run once now: its first line (absent: no custom status line). */
  customStatusLine?: () => Promise<string | undefined>;
  /** Ends the session: transcript closed, background commands and MCP servers stopped. */
  close(): Promise<void>;
}

/** One MCP server as /mcp shows it. */
export interface McpServerView {
  name: string;
  /** connected, pending, failed, needs-auth, disconnected, disabled... */
  state: string;
  error?: string;
  /** Where it was configured (user, project, local, mcpjson, cli, policy, dynamic). */
  scope: string;
  transport?: string;
  tools: readonly string[];
  serverInfo?: { name: string; version: string };
  /** Turned off by the user, here or in an earlier session in this folder (it can be turned on again). */
  disabledByUser: boolean;
  /** A project server (.mcp.json, project settings) waiting for the user's approval. */
  awaitingApproval: boolean;
}

/** What /mcp does; each operation resolves with the server afterwards, or throws with the reason. */
export interface McpServersControl {
  servers(): McpServerView[];
  reconnect(name: string): Promise<McpServerView>;
  setEnabled(name: string, enabled: boolean): Promise<McpServerView>;
  approve(name: string): Promise<McpServerView>;
}

export interface LiveNotices {
  /** The lines that arrived since the last call. */
  drain(): string[];
  /** Called when a line arrives; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export interface OpenSessionOptions {
  /** Continue this earlier session (its id). */
  resume?: string;
  /** Read the settings again (plugins turned on or off since the last session opened). */
  rereadSettings?: boolean;
  /** The model to open it with (`provider:model`), over the command line's and the settings'. */
  model?: string;
}

export type OpenSession = (options: OpenSessionOptions) => Promise<SessionHandle>;
