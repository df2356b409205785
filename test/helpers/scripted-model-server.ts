/**
 * A scripted fake model server on 127.0.0.1 that speaks both wire protocols Warden talks to,
 * with SSE streaming: the Anthropic Messages API (`POST /v1/messages`) and the OpenAI Chat
 * Completions API (`POST /v1/chat/completions`). It replaces only the model: the real SDKs, the
 * real HTTP stack and our real adapters run against it.
 *
 * Each request takes the next queued step, whichever protocol it arrives in:
 *
 * ```ts
 * const server = await startScriptedModelServer();
 * server.enqueue(
 *   httpError(429, { retryAfterMs: 10 }),                       // rate limited once
 *   reply().text("Reading it.").tool("Read", { file_path: "/a" }, { chunks: 4 }),
 *   reply().text("partial").cutAfter(3),                         // socket destroyed mid-stream
 *   reply().text("done").usage({ input: 12, output: 3 }),
 * );
 * const provider = createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" });
 * // ... run ...
 * server.requests[1].body;   // the JSON the SDK sent, with headers and timestamps beside it
 * await server.close();
 * ```
 *
 * Faults: `httpError(status, {...})` (any status, body, retry-after), `reply().cutAfter(n)` (destroy
 * the socket after n SSE events), `reply().hangAfter(n)` / `hang()` (stop talking, never end),
 * `reply().delay(ms)` (pause between events), `.delayHeaders(ms)`, `.burst()` (whole stream in one
 * write, for benchmarks), `.streamError(type, msg)` (an
 * error event inside a 200 stream), `tool(..., { chunks })` (argument JSON split into pieces),
 * `rawTool(name, text)` (malformed argument JSON), `.interleaveToolCalls()` (OpenAI parallel calls
 * sent round-robin). `replyFrom(request => step)` decides a step when its request arrives (to
 * answer with what the session only then told the model). A request with nothing queued gets a
 * 400 naming the request, so a test that
 * under-scripts fails fast and clearly instead of retrying, unless `respondWith(fn)` answers it
 * (for long conversations whose replies depend on the request).
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { performance } from "node:perf_hooks";
import {
  anthropicEvents,
  errorBody,
  openaiEvents,
  type ReplySpec,
  type ScriptedBlock,
  type ScriptedStopReason,
  type ScriptedUsage,
  splitIntoPieces,
} from "./scripted-model-wire.js";

export type { ScriptedStopReason } from "./scripted-model-wire.js";
export { splitIntoPieces } from "./scripted-model-wire.js";

export type WireProtocol = "anthropic" | "openai";

export interface RecordedRequest {
  /** 1-based order of arrival. */
  seq: number;
  protocol: WireProtocol | "unknown";
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (or the raw text when it was not JSON). */
  body: unknown;
  /** The body exactly as it arrived (byte comparisons: a fork's request against its parent's). */
  rawBody: string;
  /** Wall-clock arrival of the request head, epoch ms. */
  receivedAt: number;
  /** Monotonic arrival time (performance.now() of this process), for measuring gaps. */
  monotonicMs: number;
}

interface Delivery {
  delayBetweenEventsMs: number;
  delayHeadersMs: number;
  /** Destroy the socket after this many events. */
  cutAfter?: number;
  /** Stop writing after this many events and leave the response open. */
  hangAfter?: number;
  /** Write every event in one chunk (benchmarks: measures the client, not the server's writes). */
  burst: boolean;
  headers: Record<string, string>;
}

export type ScriptStep =
  | { kind: "reply"; spec: ReplySpec; delivery: Delivery }
  | {
      kind: "error";
      status: number;
      body: string | unknown | undefined;
      message: string;
      type?: string;
      headers: Record<string, string>;
    }
  | { kind: "hang" }
  /** Decided when the request arrives, from what it carries (see replyFrom). */
  | { kind: "lazy"; make: (request: RecordedRequest) => ScriptStepSource | Promise<ScriptStepSource> };

/** Anything `enqueue` accepts: a builder or a ready step. */
export interface ScriptStepSource {
  toStep(): ScriptStep;
}

let toolIdCounter = 0;

/** Builds one streamed model reply. Every method returns the builder. */
export class ReplyBuilder implements ScriptStepSource {
  private readonly blocks: ScriptedBlock[] = [];
  private usageCounts: ScriptedUsage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };
  private stopReason?: ScriptedStopReason;
  private streamFailure?: { type: string; message: string };
  private interleave = false;
  private readonly delivery: Delivery = { delayBetweenEventsMs: 0, delayHeadersMs: 0, headers: {}, burst: false };

  /** A text block, streamed in `chunks` deltas (default 1). */
  text(text: string, options: { chunks?: number } = {}): this {
    this.blocks.push({ type: "text", pieces: splitIntoPieces(text, options.chunks ?? 1) });
    return this;
  }

  /** A thinking block (OpenAI: `reasoning_content` deltas). */
  thinking(thinking: string, options: { chunks?: number; signature?: string } = {}): this {
    this.blocks.push({
      type: "thinking",
      pieces: splitIntoPieces(thinking, options.chunks ?? 1),
      signature: options.signature ?? "sig-scripted",
    });
    return this;
  }

  /** A tool call whose JSON arguments arrive in `chunks` pieces (default 3). */
  tool(name: string, input: Record<string, unknown>, options: { id?: string; chunks?: number } = {}): this {
    return this.rawTool(name, JSON.stringify(input), options);
  }

  /** A tool call with arguments sent verbatim, e.g. malformed JSON. */
  rawTool(name: string, argumentsText: string, options: { id?: string; chunks?: number } = {}): this {
    toolIdCounter += 1;
    this.blocks.push({
      type: "tool_use",
      id: options.id ?? `toolu_scripted_${toolIdCounter}`,
      name,
      argumentPieces: splitIntoPieces(argumentsText, options.chunks ?? 3),
    });
    return this;
  }

  /**
   * Anthropic: a server-side tool call (web_search), its input streamed as JSON deltas as the API
   * does. The OpenAI encoding leaves it out.
   */
  serverToolUse(id: string, name: string, input: Record<string, unknown>): this {
    this.blocks.push({
      type: "raw",
      contentBlock: { type: "server_tool_use", id, name, input: {} },
      deltas: [{ type: "input_json_delta", partial_json: JSON.stringify(input) }],
    });
    return this;
  }

  /** Anthropic: a web_search_tool_result block: the hits, or `{ error_code }` for a failed search. */
  webSearchResult(
    toolUseId: string,
    content: Array<{ title: string; url: string; page_age?: string }> | { error_code: string },
  ): this {
    const body = Array.isArray(content)
      ? content.map((hit) => ({
          type: "web_search_result",
          title: hit.title,
          url: hit.url,
          encrypted_content: "scripted",
          page_age: hit.page_age ?? null,
        }))
      : { type: "web_search_tool_result_error", error_code: content.error_code };
    this.blocks.push({
      type: "raw",
      contentBlock: { type: "web_search_tool_result", tool_use_id: toolUseId, content: body },
      deltas: [],
    });
    return this;
  }

  /** Anthropic: a text block whose citations arrive as citations_delta events before its text. */
  citedText(text: string, citations: Array<{ url: string; title: string; cited_text: string }>): this {
    this.blocks.push({
      type: "raw",
      contentBlock: { type: "text", text: "", citations: [] },
      deltas: [
        ...citations.map((citation) => ({
          type: "citations_delta",
          citation: { type: "web_search_result_location", encrypted_index: "scripted", ...citation },
        })),
        { type: "text_delta", text },
      ],
    });
    return this;
  }

  usage(usage: Partial<ScriptedUsage>): this {
    this.usageCounts = { ...this.usageCounts, ...usage };
    return this;
  }

  /** Overrides the stop reason (default: tool_use when the reply has tool calls, else end_turn). */
  stop(reason: ScriptedStopReason): this {
    this.stopReason = reason;
    return this;
  }

  /** Ends the stream with an in-band error event instead of a stop (e.g. "overloaded_error"). */
  streamError(type: string, message: string): this {
    this.streamFailure = { type, message };
    return this;
  }

  interleaveToolCalls(): this {
    this.interleave = true;
    return this;
  }

  /** Waits this long between SSE events. */
  delay(ms: number): this {
    this.delivery.delayBetweenEventsMs = ms;
    return this;
  }

  /** Waits this long before sending the response head. */
  delayHeaders(ms: number): this {
    this.delivery.delayHeadersMs = ms;
    return this;
  }

  /** Destroys the connection after `events` SSE events were written. */
  cutAfter(events: number): this {
    this.delivery.cutAfter = events;
    return this;
  }

  /** Stops writing after `events` SSE events and never ends the response. */
  hangAfter(events: number): this {
    this.delivery.hangAfter = events;
    return this;
  }

  /** Sends the whole stream in a single write instead of one write per event. */
  burst(): this {
    this.delivery.burst = true;
    return this;
  }

  headers(headers: Record<string, string>): this {
    Object.assign(this.delivery.headers, headers);
    return this;
  }

  toStep(): ScriptStep {
    return {
      kind: "reply",
      spec: {
        blocks: [...this.blocks],
        usage: { ...this.usageCounts },
        stopReason: this.stopReason,
        streamError: this.streamFailure,
        interleaveToolCalls: this.interleave,
      },
      delivery: { ...this.delivery, headers: { ...this.delivery.headers } },
    };
  }
}

export function reply(): ReplyBuilder {
  return new ReplyBuilder();
}

export interface HttpErrorOptions {
  /** Message inside the protocol's error JSON (default "scripted error <status>"). */
  message?: string;
  /** The error `type` in the body (default derived from the status, e.g. 529 → overloaded_error). */
  type?: string;
  /** Replaces the whole body: a string is sent as is, anything else as JSON. */
  body?: unknown;
  /** `retry-after` header, in seconds. */
  retryAfter?: number;
  /** `retry-after-ms` header (both APIs send it). */
  retryAfterMs?: number;
  headers?: Record<string, string>;
}

/** A non-2xx answer in the protocol's own error format. */
export function httpError(status: number, options: HttpErrorOptions = {}): ScriptStepSource {
  const headers: Record<string, string> = { ...options.headers };
  if (options.retryAfter !== undefined) headers["retry-after"] = String(options.retryAfter);
  if (options.retryAfterMs !== undefined) headers["retry-after-ms"] = String(options.retryAfterMs);
  const step: ScriptStep = {
    kind: "error",
    status,
    body: options.body,
    message: options.message ?? `scripted error ${status}`,
    type: options.type,
    headers,
  };
  return { toStep: () => step };
}

/**
 * A step decided when its request arrives: `build` sees the recorded request (e.g. to answer with
 * a path the session only now told the model) and returns the step to play, or a promise of it
 * (the answer waits: to act on the world between a request and its reply).
 */
export function replyFrom(
  build: (request: RecordedRequest) => ScriptStepSource | Promise<ScriptStepSource>,
): ScriptStepSource {
  return { toStep: () => ({ kind: "lazy", make: build }) };
}

/** Reads the request and never answers. */
export function hang(): ScriptStepSource {
  return { toStep: () => ({ kind: "hang" }) };
}

export interface ScriptedModelServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** baseURL for the Anthropic SDK / provider (the SDK appends /v1/messages). */
  readonly anthropicBaseURL: string;
  /** baseURL for the OpenAI SDK / provider (ends in /v1). */
  readonly openaiBaseURL: string;
  /** Every request received so far, in order. */
  readonly requests: RecordedRequest[];
  enqueue(...steps: ScriptStepSource[]): void;
  /**
   * Answers requests when nothing is queued: for long conversations whose replies depend on what
   * was asked (a summary request, the turn number). Returning undefined falls back to the 400.
   */
  respondWith(responder: ((request: RecordedRequest) => ScriptStepSource | undefined) | undefined): void;
  /** Scripted steps not yet consumed. */
  pendingSteps(): number;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`, default 5000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Stops listening and destroys every open connection (hung ones included). */
  close(): Promise<void>;
}

function protocolOf(path: string): WireProtocol | "unknown" {
  const bare = path.split("?")[0] ?? "";
  if (bare.endsWith("/messages")) return "anthropic";
  if (bare.endsWith("/chat/completions")) return "openai";
  return "unknown";
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startScriptedModelServer(): Promise<ScriptedModelServer> {
  const queue: ScriptStep[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<() => void> = [];
  let responseCounter = 0;
  let responder: ((request: RecordedRequest) => ScriptStepSource | undefined) | undefined;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const monotonicMs = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Recorded as raw text: a test may be checking exactly that the client sent bad JSON.
    }
    const path = req.url ?? "/";
    const protocol = protocolOf(path);
    const record: RecordedRequest = {
      seq: requests.length + 1,
      protocol,
      method: req.method ?? "GET",
      path,
      headers: req.headers,
      body,
      rawBody: text,
      receivedAt,
      monotonicMs,
    };
    requests.push(record);
    for (const wake of waiters.splice(0)) wake();

    const wireProtocol: WireProtocol = protocol === "unknown" ? "openai" : protocol;
    if (protocol === "unknown" || req.method !== "POST") {
      sendJson(res, 404, errorBody(wireProtocol, 404, `scripted model server: no route for ${req.method} ${path}`));
      return;
    }
    let step = queue.shift() ?? responder?.(record)?.toStep();
    while (step?.kind === "lazy") step = (await step.make(record)).toStep();
    if (!step) {
      sendJson(
        res,
        400,
        errorBody(
          wireProtocol,
          400,
          `scripted model server: no reply queued for request #${record.seq} (${req.method} ${path})`,
        ),
      );
      return;
    }
    if (step.kind === "hang") return;
    if (step.kind === "error") {
      const payload =
        step.body === undefined ? errorBody(wireProtocol, step.status, step.message, step.type) : step.body;
      const isText = typeof payload === "string";
      res.writeHead(step.status, { "content-type": isText ? "text/plain" : "application/json", ...step.headers });
      res.end(isText ? payload : JSON.stringify(payload));
      return;
    }

    responseCounter += 1;
    const model =
      typeof body === "object" && body !== null && "model" in body
        ? String((body as { model: unknown }).model)
        : "scripted-model";
    const streamOptions =
      typeof body === "object" && body !== null
        ? (body as { stream_options?: { include_usage?: boolean } }).stream_options
        : undefined;
    const events =
      protocol === "anthropic"
        ? anthropicEvents(step.spec, model, `msg_scripted_${responseCounter}`)
        : openaiEvents(step.spec, model, `chatcmpl-scripted-${responseCounter}`, streamOptions?.include_usage === true);
    await streamEvents(res, events, step.delivery);
  }

  async function streamEvents(res: ServerResponse, events: string[], delivery: Delivery): Promise<void> {
    if (delivery.delayHeadersMs > 0) await sleep(delivery.delayHeadersMs);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...delivery.headers });
    res.flushHeaders();
    if (delivery.burst && delivery.cutAfter === undefined && delivery.hangAfter === undefined) {
      res.end(events.join(""));
      return;
    }
    for (let i = 0; i < events.length; i++) {
      if (delivery.cutAfter !== undefined && i >= delivery.cutAfter) {
        res.socket?.destroy();
        return;
      }
      if (delivery.hangAfter !== undefined && i >= delivery.hangAfter) return;
      if (res.destroyed || res.socket?.destroyed) return;
      if (i > 0 && delivery.delayBetweenEventsMs > 0) await sleep(delivery.delayBetweenEventsMs);
      // Wait for each write to reach the socket so a later cut never swallows events already "sent".
      await new Promise<void>((resolve) => res.write(events[i], () => resolve()));
    }
    if (delivery.cutAfter !== undefined && delivery.cutAfter <= events.length) {
      res.socket?.destroy();
      return;
    }
    if (delivery.hangAfter !== undefined) return;
    res.end();
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    requests,
    enqueue(...steps) {
      for (const step of steps) queue.push(step.toStep());
    },
    pendingSteps: () => queue.length,
    respondWith(next) {
      responder = next;
    },
    async waitForRequests(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`scripted model server: expected ${count} requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return requests.slice(0, count);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
