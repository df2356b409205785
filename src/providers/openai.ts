// The OpenAI Chat Completions API over the official SDK, streaming. It also speaks to the many
// servers that copy that API (Ollama, vLLM, llama.cpp, OpenRouter, DeepSeek...), so it tolerates
// their habits: no key, no usage chunk, finish_reason "stop" on a tool call, reasoning deltas.
import type OpenAI from "openai";
import type { AssistantContentBlock, StopReason, Usage } from "../messages/types.js";
import { abortedError, setupError, toProviderError } from "./errors.js";
import { providerFetch } from "./http-fetch.js";
import { toOpenAIParams } from "./openai-request.js";
import { toolUseFromArguments } from "./tool-input.js";
import { type ModelRequest, type Provider, ProviderError, type ProviderEvent } from "./types.js";

export interface OpenAIProviderOptions {
  /** Defaults to OPENAI_API_KEY; may be absent for a local server. */
  apiKey?: string;
  /** Defaults to OPENAI_BASE_URL, then https://api.openai.com/v1. */
  baseURL?: string;
  /** Names this provider in messages and in `Provider.name` (e.g. "ollama"). */
  name?: string;
}

const OFFICIAL_HOST = "api.openai.com";
// Local servers ignore the key but the SDK insists on one.
const PLACEHOLDER_KEY = "no-key";

interface ClientSetup {
  client: OpenAI;
  useMaxCompletionTokens: boolean;
}

export function createOpenAIProvider(options: OpenAIProviderOptions = {}): Provider {
  const name = options.name ?? "openai";
  const label = name === "openai" ? "OpenAI API" : `${name} (OpenAI-compatible API)`;
  let setup: Promise<ClientSetup> | undefined;
  return {
    name,
    stream(request) {
      return streamChat(() => (setup ??= createClient(options, label)), request, label);
    },
  };
}

async function createClient(options: OpenAIProviderOptions, label: string): Promise<ClientSetup> {
  const baseURL = options.baseURL || process.env.OPENAI_BASE_URL || undefined;
  const official = !baseURL || new URL(baseURL).hostname === OFFICIAL_HOST;
  let apiKey = options.apiKey || process.env.OPENAI_API_KEY || undefined;
  if (!apiKey) {
    if (official) {
      throw new ProviderError(
        `${label}: no API key. Set OPENAI_API_KEY, or set OPENAI_BASE_URL to a local server that needs none.`,
        undefined,
        false,
      );
    }
    apiKey = PLACEHOLDER_KEY;
  }
  const { default: OpenAIClient } = await import("openai");
  return {
    // Its own logging off, as the Anthropic client's (./anthropic.ts), unless OPENAI_LOG asks for it.
    client: new OpenAIClient({
      apiKey,
      baseURL,
      maxRetries: 0,
      fetch: providerFetch,
      logLevel: process.env.OPENAI_LOG ? undefined : "off",
    }),
    useMaxCompletionTokens: official,
  };
}

async function* streamChat(
  getSetup: () => Promise<ClientSetup>,
  request: ModelRequest,
  label: string,
): AsyncGenerator<ProviderEvent> {
  const { signal } = request;
  if (signal.aborted) throw abortedError();
  let setup: ClientSetup;
  try {
    setup = await getSetup();
  } catch (error) {
    throw setupError(error, label);
  }
  const params = toOpenAIParams(request, { useMaxCompletionTokens: setup.useMaxCompletionTokens });
  let chunks: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>;
  try {
    chunks = await setup.client.chat.completions.create(params, { signal });
  } catch (error) {
    throw toProviderError(error, label, signal);
  }

  const turn = new ChunkAssembler();
  try {
    for await (const chunk of chunks) yield* turn.accept(chunk);
  } catch (error) {
    throw toProviderError(error, label, signal, true);
  }
  // The SDK ends the iteration quietly when the request is aborted; the caller must hear of it.
  if (signal.aborted) throw abortedError();
  if (!turn.finished) {
    throw new ProviderError(
      `${label}: the response stream ended before a finish_reason.`,
      undefined,
      true,
      "stream_cut",
    );
  }
  yield* turn.end();
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Servers that stream reasoning put it in one of these non-standard delta fields. */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/**
 * Folds chunks into our events. Text and reasoning are forwarded as they arrive; tool calls are
 * assembled per `index` (parallel calls may interleave) and released as blocks when the choice
 * finishes, since only then is every call's argument text known to be whole.
 */
class ChunkAssembler {
  finished = false;
  private text = "";
  private thinking = "";
  private finishReason: string | null = null;
  private readonly toolCalls = new Map<number, PendingToolCall>();
  private usage: Usage | undefined;

  *accept(chunk: OpenAI.Chat.ChatCompletionChunk): Generator<ProviderEvent> {
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = (choice.delta ?? {}) as OpenAI.Chat.ChatCompletionChunk.Choice.Delta & ReasoningDelta;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) {
      this.thinking += reasoning;
      yield { type: "thinking_delta", thinking: reasoning };
    }
    if (delta.content) {
      this.text += delta.content;
      yield { type: "text_delta", text: delta.content };
    }
    for (const call of delta.tool_calls ?? []) {
      const index = call.index ?? this.toolCalls.size;
      let pending = this.toolCalls.get(index);
      if (!pending) {
        pending = { id: "", name: "", arguments: "" };
        this.toolCalls.set(index, pending);
      }
      // Some servers repeat id and name on every chunk; the first one counts.
      if (call.id && !pending.id) pending.id = call.id;
      if (call.function?.name && !pending.name) pending.name = call.function.name;
      if (call.function?.arguments) pending.arguments += call.function.arguments;
    }
    if (choice.finish_reason && !this.finished) {
      this.finished = true;
      this.finishReason = choice.finish_reason;
      yield* this.blocks();
    }
  }

  /** After the stream: usage (it may follow the finish chunk), then the stop reason. */
  *end(): Generator<ProviderEvent> {
    yield {
      type: "usage",
      usage: this.usage ?? {
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    };
    yield { type: "stop", stopReason: this.stopReason() };
  }

  private *blocks(): Generator<ProviderEvent> {
    const blocks: AssistantContentBlock[] = [];
    if (this.thinking) blocks.push({ type: "thinking", thinking: this.thinking });
    if (this.text) blocks.push({ type: "text", text: this.text });
    const ordered = [...this.toolCalls.entries()].sort(([a], [b]) => a - b);
    for (const [index, call] of ordered) {
      // llama.cpp and some proxies omit ids; the loop needs one to pair the result.
      const id = call.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`;
      blocks.push(toolUseFromArguments(id, call.name, call.arguments));
    }
    for (const block of blocks) yield { type: "block", block };
  }

  private stopReason(): StopReason {
    // Ollama and others answer a tool call with finish_reason "stop": the calls are what count.
    if (this.toolCalls.size > 0) return "tool_use";
    if (this.finishReason === "length") return "max_tokens";
    if (this.finishReason === "content_filter") return "refusal";
    return "end_turn";
  }
}

/** prompt_tokens includes cached tokens; our Usage (Anthropic's meaning) counts them apart. */
function usageOf(usage: OpenAI.CompletionUsage): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
    output_tokens: usage.completion_tokens ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}
