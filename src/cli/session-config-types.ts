// What the command line says about a session (SessionConfig) and the error a bad command line
// gets. The flags are in session-flag-table.ts, the parser in session-config.ts, the checks that
// turn parsed flags into a SessionConfig in session-config-build.ts.
import type { ThinkingSetting } from "../providers/types.js";
import type { PermissionMode } from "../tool/permission-types.js";

export type OutputFormat = "text" | "json" | "stream-json";
export type InputFormat = "text" | "stream-json";
export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/**
 * Everything the command line says about a session, in one object. Modules wired in later
 * (permissions, settings, MCP) read their flags from here.
 */
export interface SessionConfig {
  /** -p / --print: run one prompt headless and exit. */
  print: boolean;
  /** The prompt from the command line (stdin is read later, by the command). */
  prompt?: string;
  outputFormat: OutputFormat;
  /** `provider:model`; undefined = pick from the environment. */
  model?: string;
  maxTurns?: number;
  /** --max-budget-usd: end the session once it has spent this much. */
  maxBudgetUsd?: number;
  verbose: boolean;
  appendSystemPrompt?: string;
  resume?: string;
  continueLatest: boolean;
  /** Absolute working directory. */
  cwd: string;
  allowedTools: string[];
  disallowedTools: string[];
  permissionMode?: PermissionMode;
  addDirs: string[];
  dangerouslySkipPermissions: boolean;
  /** bypassPermissions may be switched to later (the SDK's allowDangerouslySkipPermissions). */
  allowDangerouslySkipPermissions: boolean;
  mcpConfig: string[];
  /** A settings file path or inline JSON. */
  settings?: string;
  /** --trust-project: the folder's own settings may widen permissions for this run (CI). */
  trustProject: boolean;
  /**
   * --json-schema: the run must end with a StructuredOutput call matching this JSON schema, given
   * inline (text starting with `{`) or as a file (made absolute here).
   */
  jsonSchema?: string;
  /** --brief: offer SendUserMessage (also settings `brief: true`). */
  brief: boolean;
  /** --input-format stream-json: user messages and control requests as NDJSON on stdin (the Agent SDK). */
  inputFormat: InputFormat;
  /** --include-partial-messages: `stream_event` lines as the model's answer streams in. */
  includePartialMessages: boolean;
  /** --replay-user-messages: each user message read from stdin is written back on stdout. */
  replayUserMessages: boolean;
  /** --permission-prompt-tool stdio: asks go to the SDK as `can_use_tool` control requests. */
  permissionPromptTool?: string;
  /** --system-prompt: replaces the built-in system prompt. */
  systemPrompt?: string;
  /** --setting-sources user,project,local: which settings files are read (managed policy always is). */
  settingSources?: SettingSource[];
  /** --strict-mcp-config: only the servers of --mcp-config, none from settings files. */
  strictMcpConfig: boolean;
  /** --fallback-model: used when the main model's request fails. */
  fallbackModel?: string;
  /** --session-id: the new session's id (a UUID). */
  sessionId?: string;
  /** --fork-session: a resumed conversation continues under a new session id. */
  forkSession: boolean;
  /** --tools: the built-in tools offered ("default" or absent: all; empty: none). */
  tools?: string[];
  /** --agents: custom agents as JSON (`{"name": {"description", "prompt", "tools"?, "model"?}}`). */
  agents?: string;
  /** --max-thinking-tokens, --thinking, --thinking-display: how the model may think. */
  thinking?: ThinkingSetting;
  /** --include-hook-events: hook_started / hook_progress / hook_response lines in stream-json. */
  includeHookEvents: boolean;
  /** --enable-file-checkpointing: the Agent SDK's rewind_files may undo the changes since a user message. */
  enableFileCheckpointing: boolean;
  /** --no-session-persistence: no transcript is written (the session cannot be resumed). */
  noSessionPersistence: boolean;
  /**
   * --teammate-mode: teammates run in this process, each in a `warden` process of its own, or so and
   * shown in a tmux pane each (settings teammateMode).
   */
  teammateMode?: "in-process" | "process" | "tmux";
  /** --debug [categories]: protocol and set-up details on stderr. */
  debug: boolean;
  help: boolean;
  version: boolean;
}

export class UsageError extends Error {}
