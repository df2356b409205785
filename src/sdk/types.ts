// The library API's types, named and shaped as the Agent SDK's (`@anthropic-ai/claude-agent-sdk`),
// so that a program written for it runs on Warden by changing its import. Messages are the SDK's
// message kinds as Warden's stream-json writes them (./message-types.ts).

import type { RewindResult } from "../cli/control-protocol/file-checkpoints.js";
import type { HookEventName } from "../config/hook-events.js";
import type { ContextUsage } from "../loop/context-usage.js";

import type { PermissionMode, SDKMessage } from "./message-types.js";

export type {
  PermissionMode,
  SDKAssistantMessage,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKPermissionDenial,
  SDKResultMessage,
  SDKSystemEventMessage,
  SDKSystemInitMessage,
  SDKSystemMessage,
  SDKUsage,
  SDKUserMessage,
} from "./message-types.js";
export type SettingSource = "user" | "project" | "local";

export interface PermissionUpdateLike {
  type: string;
  [key: string]: unknown;
}

export type PermissionResult =
  | { behavior: "allow"; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdateLike[] }
  | { behavior: "deny"; message: string; interrupt?: boolean };

export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: {
    signal: AbortSignal;
    suggestions?: PermissionUpdateLike[];
    toolUseID: string;
    decisionReason?: string;
  },
) => Promise<PermissionResult>;

/** An event of the hooks catalog (config/hook-events.ts); any other name is accepted and warned about. */
export type HookEvent = HookEventName | (string & {});

export type HookJSONOutput = Record<string, unknown>;
export type HookCallback = (
  input: Record<string, unknown>,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJSONOutput>;

export interface HookCallbackMatcher {
  matcher?: string;
  hooks: HookCallback[];
  /** Seconds. */
  timeout?: number;
}

export interface AgentDefinition {
  description: string;
  prompt: string;
  tools?: string[];
  model?: string;
  [key: string]: unknown;
}

/** An MCP server the session connects to, as in `.mcp.json` (stdio, http, sse), or an in-process one. */
export type McpServerConfig =
  | { type?: "stdio"; command: string; args?: string[]; env?: Record<string, string> }
  | { type: "http" | "sse"; url: string; headers?: Record<string, string> }
  | McpSdkServerConfigWithInstance;

export interface CallToolResult {
  content: Array<Record<string, unknown>>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A tool of an in-process server (tool()): its input is a zod raw shape, as in the SDK. */
export interface SdkMcpToolDefinition<Shape = Record<string, unknown>> {
  name: string;
  description: string;
  inputSchema: Shape;
  // biome-ignore lint/suspicious/noExplicitAny: the arguments are what the caller's zod shape says
  handler: (args: any, extra: unknown) => Promise<CallToolResult>;
  annotations?: Record<string, unknown>;
}

/** An in-process MCP server (createSdkMcpServer()): its tools run in this process. */
export interface McpSdkServerConfigWithInstance {
  type: "sdk";
  name: string;
  version: string;
  instructions?: string;
  tools: SdkMcpToolDefinition[];
}

/** An MCP server's question for the user (elicitation), as the SDK's onElicitation receives it. */
export interface ElicitationRequest {
  serverName: string;
  message: string;
  mode?: "form" | "url";
  /** URL mode: the link the user is asked to open. */
  url?: string;
  /** URL mode: the id a later `elicitation_complete` system message names. */
  elicitationId?: string;
  /** Form mode: the JSON Schema of the answer (flat, primitive properties). */
  requestedSchema?: Record<string, unknown>;
}

/** The user's answer: only "accept" carries content, and only when the user gave it. */
export interface ElicitationResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

export type OnElicitation = (
  request: ElicitationRequest,
  options: { signal: AbortSignal; requestId: string },
) => Promise<ElicitationResult>;

export interface Options {
  abortController?: AbortController;
  additionalDirectories?: string[];
  agents?: Record<string, AgentDefinition>;
  allowedTools?: string[];
  disallowedTools?: string[];
  canUseTool?: CanUseTool;
  /** Answers MCP servers' questions; without it they are declined. */
  onElicitation?: OnElicitation;
  continue?: boolean;
  resume?: string;
  forkSession?: boolean;
  cwd?: string;
  /** Variables for the processes the session starts (Bash, hooks, MCP stdio servers). */
  env?: Record<string, string>;
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  maxTurns?: number;
  maxBudgetUsd?: number;
  mcpServers?: Record<string, McpServerConfig>;
  /** `provider:model`, a Claude Code alias (sonnet, opus, haiku) or a bare claude-* id. */
  model?: string;
  permissionMode?: PermissionMode;
  /** bypassPermissions may be switched to later with setPermissionMode (without it, that switch is refused). */
  allowDangerouslySkipPermissions?: boolean;
  systemPrompt?:
    | string
    | string[]
    | { type: "custom"; prompt: string | string[] }
    | { type: "preset"; preset: "claude_code"; append?: string };
  settingSources?: SettingSource[];
  includePartialMessages?: boolean;
  /** hook_started / hook_response system messages around each command hook. */
  includeHookEvents?: boolean;
  /** Lets rewindFiles() undo the file changes made since a user message. */
  enableFileCheckpointing?: boolean;
  /** The model's thinking budget in tokens (Anthropic); 0 turns thinking off. */
  maxThinkingTokens?: number;
  outputFormat?: { type: "json_schema"; schema: Record<string, unknown> };
  /** Problems and warnings of the session, line by line (default: dropped). */
  stderr?: (data: string) => void;
}

/** A control request's answer as the session gives it (the SDK's response shapes). */
export type ControlAnswer = Record<string, unknown>;

/** The Query's control methods, each one control request (src/sdk/query-controls.ts). */
export interface QueryControlMethods {
  /** Stops the running prompt (as Esc does); the result still comes. */
  interrupt(): Promise<void>;
  setPermissionMode(mode: PermissionMode): Promise<void>;
  setModel(model?: string): Promise<void>;
  /** A new thinking budget from the next request; 0 for none, null for the session's own. */
  setMaxThinkingTokens(maxThinkingTokens: number | null): Promise<void>;
  /** What fills the model's context window, by kind. */
  getContextUsage(): Promise<ContextUsageResponse>;
  /** Undoes the file changes since the user message with this uuid (needs enableFileCheckpointing). */
  rewindFiles(userMessageId: string, options?: { dryRun?: boolean }): Promise<RewindFilesResult>;
  /** Stops a background task (a Bash command run in the background) by its id. */
  stopTask(taskId: string): Promise<void>;
  /** Permission settings and the model, put in force now (see README: apply_flag_settings). */
  applyFlagSettings(settings: Record<string, unknown>): Promise<void>;
  /** `permissions` written to the project's local or the user's settings file, and put in force. */
  updateSettings(source: "localSettings" | "userSettings", settings: Record<string, unknown>): Promise<void>;
  /** The settings in force (`effective`) and each source read (`sources`). */
  getSettings(): Promise<ControlAnswer>;
  getHooksListing(): Promise<ControlAnswer>;
  /** `{ state: { rules, workspaceDirectories, originalCwd, managedOnly } }`. */
  listPermissionRules(): Promise<ControlAnswer>;
  supportedModels(): Promise<ControlAnswer[]>;
  mcpServerStatus(): Promise<ControlAnswer[]>;
  /**
   * Replaces the servers added by earlier calls (and the in-process ones of `mcpServers`) with
   * these; the servers of settings, `.mcp.json` and the `mcpServers` option's process servers
   * stay unless named. Resolves once each new server has connected or failed.
   */
  setMcpServers(servers: Record<string, McpServerConfig>): Promise<McpSetServersResult>;
  reconnectMcpServer(serverName: string): Promise<void>;
  toggleMcpServer(serverName: string, enabled: boolean): Promise<void>;
  readMcpResource(serverName: string, uri: string): Promise<ControlAnswer>;
  seedReadState(path: string, mtime: number): Promise<void>;
  reloadSkills(): Promise<ControlAnswer>;
  reloadPlugins(options?: { addPlugins?: unknown[] }): Promise<ControlAnswer>;
  reloadOutputStyles(): Promise<ControlAnswer>;
  readFile(path: string, options?: { maxBytes?: number; encoding?: "utf-8" | "base64" }): Promise<ControlAnswer | null>;
  backgroundTasks(toolUseId?: string): Promise<boolean>;
  getTaskOutput(taskId: string): Promise<ControlAnswer>;
  cancelAsyncMessage(messageUuid: string): Promise<boolean>;
  renameSession(title: string, sessionId?: string): Promise<void>;
  usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET(): Promise<ControlAnswer>;
}

export interface Query extends AsyncGenerator<SDKMessage, void>, QueryControlMethods {}

/** setMcpServers()'s answer, in the Agent SDK's McpSetServersResult shape. */
export interface McpSetServersResult {
  added: string[];
  removed: string[];
  /** Server name → why it is not running (a bad entry, a failed connection, turned off here). */
  errors: Record<string, string>;
}

/** getContextUsage()'s answer, in the Agent SDK's shape. */
export type ContextUsageResponse = ContextUsage & {
  rawMaxTokens: number;
  gridRows: unknown[][];
  memoryFiles: Array<{ path: string; type: string; tokens: number }>;
  agents: Array<{ agentType: string; source: string; tokens: number }>;
};

export type RewindFilesResult = RewindResult;
