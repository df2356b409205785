import type {
  AssistantMessage,
  Message,
  ToolResultBlock,
  ToolUseBlock,
  Usage,
  UserMessage,
} from "../messages/types.js";
import type { PermissionDenialRecord } from "../orchestration/run-tool-use.js";
import type { BriefMessage } from "../tool/brief.js";
import type { CompactTrigger } from "../tool/compact-hooks.js";
import type { TaskListSnapshot } from "../tool/task-list.js";

/** Why a query() ended. */
export type TerminalReason =
  /** A turn ended without tool calls. */
  | "completed"
  /** The turn limit was reached; every tool call of the last turn still got its result. */
  | "max_turns"
  /** Aborted while the model was streaming. */
  | "aborted_streaming"
  /** Aborted while tools were running. */
  | "aborted_tools"
  /** The model request failed (after the provider's own retries). */
  | "model_error"
  /** The conversation no longer fits the model's context window. */
  | "prompt_too_long"
  /** The model kept hitting its output limit after every allowed continue nudge. */
  | "max_output_tokens"
  /** The session's spending reached its USD budget (`--max-budget-usd`). */
  | "max_budget_usd"
  /** A tool call's hook answered `continue: false`; every call of the last turn got its result. */
  | "hook_stopped";

/**
 * The conversation was summarised to free the context window: `messages` (the summary, the state
 * put back, the newest exchange) replace everything before. The session swaps its history for
 * them and writes a compact boundary to the transcript, from which `--resume` continues.
 */
export interface CompactBoundaryEvent {
  type: "compact_boundary";
  trigger: CompactTrigger;
  /** Estimated tokens of the request before and after. */
  preTokens: number;
  postTokens: number;
  summary: string;
  messages: Message[];
  /** What the summary request cost. */
  usage: Usage;
}

export interface TerminalEvent {
  type: "terminal";
  reason: TerminalReason;
  /** Model requests made by this query. */
  turnCount: number;
  /** Usage summed over this query's model requests. */
  usage: Usage;
  /** Set for model_error and prompt_too_long. */
  error?: string;
  /** Set for hook_stopped: the hook's `stopReason`, for the person (the model never reads it). */
  hookStopReason?: string;
}

/**
 * What query() yields. `assistant` and `user` carry messages that become part of the conversation
 * (the session appends them in order); the others are for display and accounting.
 */
export type QueryEvent =
  /** A model request is about to be sent (the count starts at 1). */
  | { type: "request_start"; turn: number }
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; thinking: string }
  /** The provider restarted its stream after a network cut: forget the partial turn shown so far. */
  | { type: "stream_reset" }
  | { type: "assistant"; message: AssistantMessage }
  /** Tool results, reminders, continue nudges, interruption notes and messages tools add. */
  | { type: "user"; message: UserMessage }
  | { type: "tool_progress"; toolUseId: string; toolName: string; progress: unknown }
  /** One tool call finished (results are also collected into the turn's user message). */
  | { type: "tool_result"; toolUse: ToolUseBlock; result: ToolResultBlock; denial?: PermissionDenialRecord }
  /** The task list changed during the turn's tool calls (TodoWrite, the Task tools, a teammate): the list as it is now. */
  | { type: "todo"; list: TaskListSnapshot }
  /** The model sent the user a message while working (SendUserMessage). */
  | { type: "brief"; message: BriefMessage }
  | CompactBoundaryEvent
  /** For the person running the session, not the model: a hook failed, a compaction was refused. */
  | { type: "notice"; message: string }
  | TerminalEvent;
