// The Anthropic Messages API over the official SDK, streaming. The SDK is loaded on the first
// request, so a session that uses another provider never pays for it; its own retries are off
// because withRetry decides (one policy for every provider, with the reset event on a cut).
import type Anthropic from "@anthropic-ai/sdk";
import type { AssistantContentBlock, StopReason, Usage } from "../messages/types.js";
import { toAnthropicParams } from "./anthropic-request.js";
import type { MessagesClient } from "./anthropic-sdk.js";
import { abortedError, setupError, toProviderError } from "./errors.js";
import { providerFetch } from "./http-fetch.js";
import { toolUseFromArguments } from "./tool-input.js";
import { type ModelRequest, type Provider, ProviderError, type ProviderEvent } from "./types.js";

export interface AnthropicProviderOptions {
  /** Defaults to ANTHROPIC_API_KEY (or the SDK's ANTHROPIC_AUTH_TOKEN bearer token). */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL, then https://api.anthropic.com. */
  baseURL?: string;
}

const LABEL = "Anthropic API";
const LONG_CONTEXT_SUFFIX = /\[1m\]$/i;
const LONG_CONTEXT_BETA = "context-1m-2025-08-07";
const OFFICIAL_HOST = "api.anthropic.com";

export function createAnthropicProvider(options: AnthropicProviderOptions = {}): Provider {
  let client: Promise<MessagesClient> | undefined;
  return {
    name: "anthropic",
    stream(request) {
      // The client is made inside the stream, on first use, so a missing key surfaces as this
      // request's error rather than as a promise rejected before anyone listens.
      return streamMessages(() => (client ??= createClient(options)), request);
    },
  };
}

async function createClient(options: AnthropicProviderOptions): Promise<MessagesClient> {
  const baseURL = options.baseURL || process.env.ANTHROPIC_BASE_URL || undefined;
  let apiKey = options.apiKey || process.env.ANTHROPIC_API_KEY || undefined;
  const authToken = process.env.ANTHROPIC_AUTH_TOKEN || undefined;
  if (!apiKey && !authToken) {
    // A local or self-hosted Anthropic-compatible server may need no key; the real API always does.
    if (!baseURL || new URL(baseURL).hostname === OFFICIAL_HOST) {
      throw new ProviderError(
        `${LABEL}: no API key. Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or point ANTHROPIC_BASE_URL at a server that needs none.`,
        undefined,
        false,
      );
    }
    apiKey = "no-key";
  }
  const { createMessagesClient } = await import("./anthropic-sdk.js");
  // Exactly one credential: the SDK refuses two, and with none it would go looking in config files.
  const credential = apiKey ? { apiKey } : { authToken };
  // The SDK's own logging (a stream line it cannot parse, dumped with console.error) would land
  // on the terminal or the host's console beside Warden's report of the same failure; ANTHROPIC_LOG
  // still turns it on.
  const logLevel = process.env.ANTHROPIC_LOG ? undefined : "off";
  return createMessagesClient({ ...credential, baseURL, maxRetries: 0, fetch: providerFetch, logLevel });
}

async function* streamMessages(
  getClient: () => Promise<MessagesClient>,
  request: ModelRequest,
): AsyncGenerator<ProviderEvent> {
  const { signal } = request;
  if (signal.aborted) throw abortedError();
  let client: MessagesClient;
  try {
    client = await getClient();
  } catch (error) {
    throw setupError(error, LABEL);
  }
  // Claude Code's `[1m]` suffix: the model itself, asked for its 1M-token context window.
  const longContext = LONG_CONTEXT_SUFFIX.test(request.model);
  const params = toAnthropicParams(
    longContext ? { ...request, model: request.model.replace(LONG_CONTEXT_SUFFIX, "") } : request,
  );
  let events: AsyncIterable<Anthropic.RawMessageStreamEvent>;
  try {
    events = await client.messages.create(params, {
      signal,
      ...(longContext && { headers: { "anthropic-beta": LONG_CONTEXT_BETA } }),
    });
  } catch (error) {
    throw toProviderError(error, LABEL, signal);
  }

  const turn = new TurnAssembler();
  // What one raw event gives (none for most: a block's start, its JSON deltas), reused for each.
  const out: ProviderEvent[] = [];
  try {
    for await (const event of events) {
      turn.accept(event, out);
      // Indexed, and not `yield*` over a generator per event: the stream runs cold, where both
      // allocate per step (a generator and its results for each of a response's events).
      for (let i = 0; i < out.length; i++) yield out[i] as ProviderEvent;
      out.length = 0;
    }
  } catch (error) {
    throw toProviderError(error, LABEL, signal, true);
  }
  // The SDK ends the iteration quietly when the request is aborted; the caller must hear of it.
  if (signal.aborted) throw abortedError();
  if (!turn.complete) {
    throw new ProviderError(`${LABEL}: the response stream ended before message_stop.`, undefined, true, "stream_cut");
  }
}

interface OpenBlock {
  kind: "text" | "thinking" | "tool_use" | "server_tool_use" | "other";
  text: string;
  signature: string;
  id: string;
  name: string;
}

/** What a server-side web search returned, as our event carries it. */
function webSearchResultEvent(block: Anthropic.WebSearchToolResultBlock): ProviderEvent {
  const content = block.content;
  if (!Array.isArray(content)) {
    return { type: "web_search_result", toolUseId: block.tool_use_id, hits: [], errorCode: content.error_code };
  }
  return {
    type: "web_search_result",
    toolUseId: block.tool_use_id,
    hits: content.map((hit) =>
      hit.page_age ? { title: hit.title, url: hit.url, pageAge: hit.page_age } : { title: hit.title, url: hit.url },
    ),
  };
}

/** A server tool's input: streamed as JSON deltas, or whole in the block's start. */
function serverToolInput(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: "end_turn",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  stop_sequence: "stop_sequence",
  pause_turn: "pause_turn",
  refusal: "refusal",
  // The context window filled before max_tokens: to the loop this is the same "output was cut".
  model_context_window_exceeded: "max_tokens",
};

/** Folds the raw SSE events of one response into our events: deltas at once, blocks when complete. */
class TurnAssembler {
  complete = false;
  private readonly open = new Map<number, OpenBlock>();
  private usage: Usage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  private stopReason: string | null = null;
  private sawToolUse = false;

  /** Adds to `out` what `event` gives the caller, in order. */
  accept(event: Anthropic.RawMessageStreamEvent, out: ProviderEvent[]): void {
    switch (event.type) {
      case "message_start": {
        const usage = event.message.usage;
        this.usage = {
          input_tokens: usage.input_tokens ?? 0,
          output_tokens: usage.output_tokens ?? 0,
          cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        };
        break;
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "web_search_tool_result") {
          // Complete in its start event: nothing streams into it.
          out.push(webSearchResultEvent(block));
          break;
        }
        const kind =
          block.type === "text" ||
          block.type === "thinking" ||
          block.type === "tool_use" ||
          block.type === "server_tool_use"
            ? block.type
            : "other";
        const open: OpenBlock = { kind, text: "", signature: "", id: "", name: "" };
        if (block.type === "text") open.text = block.text;
        if (block.type === "thinking") {
          open.text = block.thinking;
          open.signature = block.signature ?? "";
        }
        if (block.type === "tool_use") {
          open.id = block.id;
          open.name = block.name;
        }
        if (block.type === "server_tool_use") {
          open.id = block.id;
          open.name = block.name;
          const input = block.input as Record<string, unknown> | undefined;
          // Kept only when the start carries the whole input; otherwise it streams as JSON deltas.
          if (input && Object.keys(input).length > 0) open.signature = JSON.stringify(input);
        }
        this.open.set(event.index, open);
        break;
      }
      case "content_block_delta": {
        const open = this.open.get(event.index);
        if (!open) break;
        const delta = event.delta;
        if (delta.type === "text_delta") {
          open.text += delta.text;
          out.push({ type: "text_delta", text: delta.text });
        } else if (delta.type === "thinking_delta") {
          open.text += delta.thinking;
          out.push({ type: "thinking_delta", thinking: delta.thinking });
        } else if (delta.type === "signature_delta") {
          open.signature += delta.signature;
        } else if (delta.type === "input_json_delta") {
          open.text += delta.partial_json;
        } else if (delta.type === "citations_delta" && delta.citation.type === "web_search_result_location") {
          const { url, title, cited_text } = delta.citation;
          out.push(
            title
              ? { type: "citation", url, title, citedText: cited_text }
              : { type: "citation", url, citedText: cited_text },
          );
        }
        break;
      }
      case "content_block_stop": {
        const open = this.open.get(event.index);
        this.open.delete(event.index);
        if (open?.kind === "server_tool_use") {
          out.push({
            type: "server_tool_use",
            id: open.id,
            name: open.name,
            input: serverToolInput(open.text || open.signature),
          });
          break;
        }
        const block = open && this.finish(open);
        if (block) out.push({ type: "block", block });
        break;
      }
      case "message_delta": {
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        const usage = event.usage;
        // message_delta counts are cumulative for the response, so they replace, not add.
        this.usage = {
          input_tokens: usage.input_tokens ?? this.usage.input_tokens,
          output_tokens: usage.output_tokens ?? this.usage.output_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens ?? this.usage.cache_creation_input_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? this.usage.cache_read_input_tokens,
        };
        const searches = usage.server_tool_use?.web_search_requests;
        if (searches) this.usage.server_tool_use = { web_search_requests: searches };
        break;
      }
      case "message_stop": {
        this.complete = true;
        out.push({ type: "usage", usage: this.usage }, { type: "stop", stopReason: this.finalStopReason() });
        break;
      }
    }
  }

  private finish(open: OpenBlock): AssistantContentBlock | undefined {
    if (open.kind === "text") return open.text ? { type: "text", text: open.text } : undefined;
    if (open.kind === "thinking") {
      return open.signature
        ? { type: "thinking", thinking: open.text, signature: open.signature }
        : { type: "thinking", thinking: open.text };
    }
    if (open.kind === "tool_use") {
      this.sawToolUse = true;
      return toolUseFromArguments(open.id, open.name, open.text);
    }
    return undefined;
  }

  private finalStopReason(): StopReason {
    const mapped = this.stopReason ? STOP_REASONS[this.stopReason] : undefined;
    return mapped ?? (this.sawToolUse ? "tool_use" : "end_turn");
  }
}
