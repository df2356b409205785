import type { AssistantContentBlock, Message, StopReason, Usage } from "../messages/types.js";
import type { ServerWebSearchOptions, WebSearchHit } from "../tool/side-query.js";
import type { JSONSchema } from "../tool/types.js";

/** A tool as the model sees it in a request. */
export interface ToolSchema {
  name: string;
  description: string;
  input_schema: JSONSchema;
  strict?: boolean;
}

export interface ModelRequest {
  /** The model name without the provider prefix. */
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSchema[];
  maxTokens: number;
  signal: AbortSignal;
  temperature?: number;
  /**
   * Set when a subagent sends the request (its id, type, description and name). Real providers
   * ignore it; the replay provider plays each agent's own scripted turns by it.
   */
  agent?: RequestAgent;
  /**
   * Set when a tool's side query sends the request (src/loop/side-query.ts): who asks (`WebFetch`,
   * `WebSearch`). Real providers ignore it; the replay provider answers from the script's lines
   * that carry it as `"side"`.
   */
  sideQuery?: string;
  /** The provider's server-side web search, for this request only (Anthropic; others ignore it). */
  webSearch?: ServerWebSearchOptions;
  /** How the model may think before answering (Anthropic's thinking; a reasoning effort on Chat Completions); absent: the model's default. */
  thinking?: ThinkingSetting;
}

/** How much of the model's thinking comes back: all of it (summarized) or only its signature. */
export type ThinkingDisplay = "summarized" | "omitted";

/**
 * Thinking as Claude Code's flags name it: a budget of tokens (`--max-thinking-tokens`), the model
 * deciding (`--thinking adaptive`) or none (`--thinking disabled`, a budget of 0). Providers
 * without thinking ignore it.
 */
export type ThinkingSetting =
  | { type: "enabled"; budgetTokens: number; display?: ThinkingDisplay }
  | { type: "adaptive"; display?: ThinkingDisplay }
  | { type: "disabled" };

/** Which subagent a request comes from. */
export interface RequestAgent {
  agentId: string;
  agentType: string;
  description: string;
  name?: string;
}

/** A model by its provider's name (`anthropic`, `openai`...) and its id there. */
export interface AnsweringModel {
  provider: string;
  model: string;
}

/**
 * One streamed model response. Deltas are for display; `block` carries each content block once it
 * is complete (a tool_use is only emitted with its whole parsed input), in the order of the message.
 */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "block"; block: AssistantContentBlock }
  /**
   * The turn's token counts, once per response (totals, not increments), before `stop`.
   * `answeredBy`: the model that answered when it is not the one asked (--fallback-model), whose
   * id and price the tokens are counted under.
   */
  | { type: "usage"; usage: Usage; answeredBy?: AnsweringModel }
  | { type: "stop"; stopReason: StopReason }
  /** The model ran a server-side tool (web search): its id, name and input, once complete. */
  | { type: "server_tool_use"; id: string; name: string; input: Record<string, unknown> }
  /** What a server-side web search found (or why it failed), for the server_tool_use `toolUseId`. */
  | { type: "web_search_result"; toolUseId: string; hits: WebSearchHit[]; errorCode?: string }
  /** A citation of the text block being streamed (a passage backed by a search result). */
  | { type: "citation"; url: string; title?: string; citedText: string }
  /**
   * The stream broke after some events of this turn were already yielded and the request is being
   * retried from the start: drop every delta and block received so far for this turn.
   */
  | { type: "reset" };

export interface Provider {
  /** `anthropic`, `openai`, `replay`, ... */
  readonly name: string;
  stream(request: ModelRequest): AsyncIterable<ProviderEvent>;
}

/** A failure talking to the model. `status` is the HTTP status when there was one. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
    readonly kind: "http" | "network" | "stream_cut" | "aborted" | "prompt_too_long" | "script" = "http",
  ) {
    super(message);
    this.name = "ProviderError";
  }

  /** How long the server asked us to wait before trying again (retry-after), when it said. */
  retryAfterMs?: number;

  /**
   * The connection was refused by this machine (a loopback address): nothing listens there, as
   * when a local model server (Ollama, llama.cpp...) is not started. Retried briefly, not for minutes.
   */
  refusedLocally?: { address: string; port: number };
}
