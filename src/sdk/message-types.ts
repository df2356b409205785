// The messages query() yields, typed as the Agent SDK types them: a union told apart by `type`
// (and a system message by `subtype`), so a program written for the SDK narrows them as it did
// there (`message.type === "result"` gives `permission_denials`, `"assistant"` the content blocks)
// and compiles unchanged against Warden. Their shapes are what src/cli/headless/output.ts writes.

import type { AssistantContentBlock, StopReason, UserContentBlock } from "../messages/types.js";
import type { ModelUsageEntry } from "../models/cost.js";

export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk" | "auto";

/** Tokens as the Messages API reports them, every field present. */
export interface SDKUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  [key: string]: unknown;
}

interface SDKMessageBase {
  session_id: string;
  uuid: string;
}

export interface SDKAssistantMessage extends SDKMessageBase {
  type: "assistant";
  /** Shaped as the Messages API's Message. */
  message: {
    id: string;
    type: "message";
    role: "assistant";
    model: string;
    content: AssistantContentBlock[];
    stop_reason: StopReason | null;
    stop_sequence: string | null;
    usage: SDKUsage;
  };
  parent_tool_use_id: string | null;
}

/** A user message: what a program sends (prompt), and what query() yields (tool results, text). */
export interface SDKUserMessage {
  type: "user";
  message: { role: "user"; content: string | UserContentBlock[] };
  parent_tool_use_id?: string | null;
  /** Set on the messages query() yields; optional on those a program sends. */
  session_id?: string;
  uuid?: string;
  /** A message the session added for the model, not typed by the user. */
  isMeta?: boolean;
}

export interface SDKPermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

export interface SDKResultMessage extends SDKMessageBase {
  type: "result";
  subtype:
    | "success"
    | "error_max_turns"
    | "error_max_budget_usd"
    | "error_during_execution"
    | "error_max_structured_output_retries";
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result: string;
  /** Null when a model's price is unknown. */
  total_cost_usd: number | null;
  usage: SDKUsage;
  modelUsage: Record<string, ModelUsageEntry>;
  permission_denials: SDKPermissionDenial[];
  /** Why the loop stopped (completed, max_turns, aborted_streaming, model_error...). */
  terminal_reason?: string;
  stop_reason?: string | null;
  error?: string;
  errors?: string[];
  notices?: string[];
  structured_output?: unknown;
}

/** The first message: what the session runs with. */
export interface SDKSystemInitMessage extends SDKMessageBase {
  type: "system";
  subtype: "init";
  cwd: string;
  model: string;
  tools: string[];
  mcp_servers: Array<{ name: string; status: string }>;
  permissionMode: PermissionMode;
  apiKeySource: string;
  claude_code_version: string;
  slash_commands: string[];
  output_style: string;
  skills: string[];
  plugins: Array<{ name: string; path: string }>;
  agents?: string[];
  [key: string]: unknown;
}

/** The other system messages (a retry, a compaction, hook and task events...), fields as they come. */
export interface SDKSystemEventMessage extends SDKMessageBase {
  type: "system";
  subtype:
    | "api_retry"
    | "compact_boundary"
    | "status"
    | "mcp_log"
    | "elicitation_complete"
    | "session_state_changed"
    | "hook_started"
    | "hook_progress"
    | "hook_response"
    | "task_started"
    | "task_progress"
    | "task_notification"
    | "teammate_state"
    | "teammate_usage"
    | "permission_denial";
  [key: string]: unknown;
}

export type SDKSystemMessage = SDKSystemInitMessage | SDKSystemEventMessage;

/** One streaming event of the Messages API (includePartialMessages). */
export interface SDKPartialAssistantMessage extends SDKMessageBase {
  type: "stream_event";
  event: { type: string; [key: string]: unknown };
  parent_tool_use_id: string | null;
}

/** One message of the conversation as query() yields it. */
export type SDKMessage =
  | SDKAssistantMessage
  | SDKUserMessage
  | SDKResultMessage
  | SDKSystemMessage
  | SDKPartialAssistantMessage;
