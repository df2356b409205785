// The result line's shape and words: what a headless run reports when it ends, in the Agent SDK's
// result shape (subtypes, full usage, the reason a run stopped said in words).
import type { TerminalReason } from "../../loop/events.js";
import type { Usage } from "../../messages/types.js";
import type { ModelUsageEntry } from "../../models/cost.js";

export type ResultSubtype =
  | "success"
  | "error_max_turns"
  | "error_max_budget_usd"
  | "error_during_execution"
  | "error_max_structured_output_retries";

/** What the session spent, for the result line. */
export interface SessionCosts {
  /** Null when a model the session used has no known price. */
  totalCostUsd: number | null;
  modelUsage: Record<string, ModelUsageEntry>;
}

export interface ResultObject {
  type: "result";
  subtype: ResultSubtype;
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result: string;
  session_id: string;
  /** USD spent by the session; null when a model's price is unknown (never a made-up zero). */
  total_cost_usd: number | null;
  usage: Usage;
  /** Tokens and cost per model id, in the Agent SDK's ModelUsage shape. */
  modelUsage: Record<string, ModelUsageEntry>;
  permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }>;
  /** Why the loop stopped (completed, max_turns, aborted_streaming, model_error, ...). */
  terminal_reason: TerminalReason;
  /** What went wrong, for error results. */
  error?: string;
  /** The same, as the Agent SDK's error results carry it. */
  errors?: string[];
  /** What the run left undone that its caller should know of (a sign-in nobody finished). */
  notices?: string[];
  /** The last answer's stop reason (null when there was none). */
  stop_reason: string | null;
  /** `--json-schema` runs: the data of the last StructuredOutput call that matched the schema. */
  structured_output?: unknown;
  uuid: string;
}

/** What a `--json-schema` run produced (`output` absent: no valid StructuredOutput call). */
export interface StructuredOutcome {
  output?: { data: unknown };
}

export function subtypeOf(reason: TerminalReason): ResultSubtype {
  // A hook's `continue: false` ends the run as its author meant: not an error of the run.
  if (reason === "completed" || reason === "hook_stopped") return "success";
  if (reason === "max_turns") return "error_max_turns";
  if (reason === "max_budget_usd") return "error_max_budget_usd";
  return "error_during_execution";
}

export const REASON_TEXT: Record<TerminalReason, string> = {
  completed: "",
  max_turns: "the session reached its turn limit (--max-turns)",
  aborted_streaming: "interrupted while the model was answering",
  aborted_tools: "interrupted while tools were running",
  model_error: "the model request failed",
  prompt_too_long: "the conversation is too long for the model's context window",
  max_output_tokens: "the model kept hitting its output token limit",
  max_budget_usd: "the session reached its USD budget (--max-budget-usd)",
  hook_stopped: "a hook stopped the run (continue: false)",
};

/** The Agent SDK's usage shape: every field present. */
export function fullUsage(usage: Usage | undefined): object {
  return {
    input_tokens: usage?.input_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    cache_creation_input_tokens: usage?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage?.cache_read_input_tokens ?? 0,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: "standard",
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
  };
}
