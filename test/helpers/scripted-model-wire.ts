// Wire encodings for the scripted model server: one scripted reply, written as the SSE stream the
// Anthropic Messages API or the OpenAI Chat Completions API would send. Kept apart from the server
// so the byte formats can be read (and checked against the APIs' docs) in one place.

export type ScriptedStopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "pause_turn";

export type ScriptedBlock =
  | { type: "text"; pieces: string[] }
  | { type: "thinking"; pieces: string[]; signature: string }
  | { type: "tool_use"; id: string; name: string; argumentPieces: string[] }
  /**
   * Anthropic only: a block sent as given, its start event's `content_block` and the deltas that
   * follow (server_tool_use, web_search_tool_result, text with citations_delta). OpenAI skips it.
   */
  | { type: "raw"; contentBlock: Record<string, unknown>; deltas: Record<string, unknown>[] };

export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Anthropic: `usage.server_tool_use.web_search_requests` of the final message_delta. */
  webSearchRequests?: number;
}

/** Everything a scripted streamed reply says, independent of the protocol it is spoken in. */
export interface ReplySpec {
  blocks: ScriptedBlock[];
  usage: ScriptedUsage;
  stopReason?: ScriptedStopReason;
  /** An error event sent in the stream after the content (Anthropic `event: error`, OpenAI `{error}`). */
  streamError?: { type: string; message: string };
  /** OpenAI only: send the argument deltas of parallel tool calls round-robin instead of one after another. */
  interleaveToolCalls: boolean;
}

/** Splits `text` into `count` pieces of near-equal length (fewer when the text is shorter). */
export function splitIntoPieces(text: string, count: number): string[] {
  if (text.length === 0) return [""];
  const n = Math.max(1, Math.min(Math.floor(count), text.length));
  const size = Math.ceil(text.length / n);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

function stopReasonOf(spec: ReplySpec): ScriptedStopReason {
  if (spec.stopReason) return spec.stopReason;
  return spec.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function dataLine(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** The SSE events of one Anthropic Messages API streamed response. */
export function anthropicEvents(spec: ReplySpec, model: string, messageId: string): string[] {
  const events: string[] = [];
  events.push(
    sse("message_start", {
      type: "message_start",
      message: {
        id: messageId,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: spec.usage.input,
          output_tokens: 1,
          cache_creation_input_tokens: spec.usage.cacheWrite,
          cache_read_input_tokens: spec.usage.cacheRead,
        },
      },
    }),
  );
  events.push(sse("ping", { type: "ping" }));
  spec.blocks.forEach((block, index) => {
    if (block.type === "text") {
      events.push(
        sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }),
      );
      for (const text of block.pieces) {
        events.push(
          sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text } }),
        );
      }
    } else if (block.type === "raw") {
      events.push(
        sse("content_block_start", { type: "content_block_start", index, content_block: block.contentBlock }),
      );
      for (const delta of block.deltas)
        events.push(sse("content_block_delta", { type: "content_block_delta", index, delta }));
    } else if (block.type === "thinking") {
      events.push(
        sse("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        }),
      );
      for (const thinking of block.pieces) {
        events.push(
          sse("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "thinking_delta", thinking },
          }),
        );
      }
      events.push(
        sse("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "signature_delta", signature: block.signature },
        }),
      );
    } else {
      events.push(
        sse("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial_json of block.argumentPieces) {
        events.push(
          sse("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json },
          }),
        );
      }
    }
    events.push(sse("content_block_stop", { type: "content_block_stop", index }));
  });
  if (spec.streamError) {
    events.push(
      sse("error", { type: "error", error: { type: spec.streamError.type, message: spec.streamError.message } }),
    );
    return events;
  }
  events.push(
    sse("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReasonOf(spec), stop_sequence: null },
      usage: {
        output_tokens: spec.usage.output,
        ...(spec.usage.webSearchRequests !== undefined
          ? { server_tool_use: { web_search_requests: spec.usage.webSearchRequests, web_fetch_requests: 0 } }
          : {}),
      },
    }),
  );
  events.push(sse("message_stop", { type: "message_stop" }));
  return events;
}

const OPENAI_FINISH: Record<ScriptedStopReason, string> = {
  end_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  stop_sequence: "stop",
  refusal: "content_filter",
  pause_turn: "stop",
};

/** The SSE `data:` lines of one OpenAI Chat Completions streamed response, `[DONE]` included. */
export function openaiEvents(spec: ReplySpec, model: string, completionId: string, includeUsage: boolean): string[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    dataLine({
      id: completionId,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  const events: string[] = [chunk({ role: "assistant", content: "" })];

  const toolCalls = spec.blocks.filter((b): b is Extract<ScriptedBlock, { type: "tool_use" }> => b.type === "tool_use");
  for (const block of spec.blocks) {
    if (block.type === "text") for (const content of block.pieces) events.push(chunk({ content }));
    if (block.type === "thinking")
      for (const reasoning_content of block.pieces) events.push(chunk({ reasoning_content }));
  }

  const toolCallChunks = toolCalls.map((call, index) => [
    chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    ...call.argumentPieces.map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] })),
  ]);
  if (spec.interleaveToolCalls) {
    const longest = Math.max(0, ...toolCallChunks.map((c) => c.length));
    for (let step = 0; step < longest; step++) {
      for (const callChunks of toolCallChunks) if (step < callChunks.length) events.push(callChunks[step]!);
    }
  } else {
    for (const callChunks of toolCallChunks) events.push(...callChunks);
  }

  if (spec.streamError) {
    events.push(dataLine({ error: { message: spec.streamError.message, type: spec.streamError.type, code: null } }));
    return events;
  }
  events.push(chunk({}, OPENAI_FINISH[stopReasonOf(spec)]));
  if (includeUsage) {
    events.push(
      dataLine({
        id: completionId,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [],
        usage: {
          prompt_tokens: spec.usage.input + spec.usage.cacheRead,
          completion_tokens: spec.usage.output,
          total_tokens: spec.usage.input + spec.usage.cacheRead + spec.usage.output,
          prompt_tokens_details: { cached_tokens: spec.usage.cacheRead },
        },
      }),
    );
  }
  events.push("data: [DONE]\n\n");
  return events;
}

/** The JSON error body each API sends with a non-2xx status. */
export function errorBody(protocol: "anthropic" | "openai", status: number, message: string, type?: string): unknown {
  const errorType = type ?? defaultErrorType(status);
  if (protocol === "anthropic") return { type: "error", error: { type: errorType, message } };
  return { error: { message, type: errorType, param: null, code: null } };
}

function defaultErrorType(status: number): string {
  if (status === 400) return "invalid_request_error";
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limit_error";
  if (status === 529) return "overloaded_error";
  return "api_error";
}
