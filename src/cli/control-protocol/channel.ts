// The Agent SDK's wire: NDJSON on stdin and stdout. Lines in are user messages, control requests
// (the SDK asking: initialize, interrupt, set_model...) and control responses (the SDK answering
// what we asked: can_use_tool, hook_callback, mcp_message). Every request carries an id, and every
// request we receive gets exactly one response, an error for the ones we do not handle, so the
// SDK never waits on an answer that will not come.
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

export type JsonObject = Record<string, unknown>;

/** A user message line (`{"type":"user","message":{"role":"user","content":...}}`). */
export interface UserMessageLine extends JsonObject {
  type: "user";
  message: { role: "user"; content: unknown };
}

/** Answers one control request: its response payload, or a throw for an error response. */
export type ControlRequestHandler = (request: JsonObject, requestId: string) => Promise<JsonObject | undefined>;

export interface ChannelOptions {
  input: Readable;
  write: (line: JsonObject) => void;
  /** Problems with a line (not JSON, unknown type): said on stderr, the line skipped. */
  warn: (message: string) => void;
  debug?: (message: string) => void;
}

export class ControlChannel {
  private readonly pending = new Map<
    string,
    { resolve: (value: JsonObject) => void; reject: (error: Error) => void }
  >();
  private handler: ControlRequestHandler | undefined;
  private userHandler: ((message: UserMessageLine) => void) | undefined;
  private messageHandler: ((message: JsonObject) => void) | undefined;
  private readonly early: Array<() => void> = [];
  private ended = false;
  private toolGate: ((toolUseId: string, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Resolves when stdin has closed. */
  readonly closed: Promise<void>;

  constructor(private readonly options: ChannelOptions) {
    const lines = createInterface({ input: options.input, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => this.receive(line));
    this.closed = new Promise((resolve) => {
      lines.on("close", () => {
        this.ended = true;
        for (const [id, waiter] of this.pending) {
          waiter.reject(new Error(`stdin closed before the answer to control request ${id}`));
        }
        this.pending.clear();
        resolve();
      });
    });
  }

  get inputEnded(): boolean {
    return this.ended;
  }

  /** Lines that came before a handler was set are delivered to it now, in order. */
  onControlRequest(handler: ControlRequestHandler): void {
    this.handler = handler;
    this.flushEarly();
  }

  onUserMessage(handler: (message: UserMessageLine) => void): void {
    this.userHandler = handler;
    this.flushEarly();
  }

  /**
   * The other messages (`system`, `assistant`, `result`...): read by a channel whose other end is
   * a session (a lead reading its process teammate, ../teammates/process-runner.ts). Without a
   * handler they are skipped with a warning, as a session reading an SDK does.
   */
  onMessage(handler: (message: JsonObject) => void): void {
    this.messageHandler = handler;
  }

  /**
   * Requests about a tool call (they carry its `tool_use_id`) wait on `gate` before they are
   * written: the SDK reads the assistant message holding the call first (headless/call-order.ts).
   */
  orderToolRequests(gate: (toolUseId: string, signal?: AbortSignal) => Promise<void>): void {
    this.toolGate = gate;
  }

  /** Sends a control request to the SDK and waits for its response payload (an error response rejects). */
  async request(request: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
    const toolUseId = request.tool_use_id;
    if (this.toolGate && typeof toolUseId === "string") {
      await this.toolGate(toolUseId, signal);
      // Given up while it waited: nothing was sent, so there is nothing to cancel.
      if (signal?.aborted) throw new Error("cancelled");
    }
    return this.send(request, signal);
  }

  private send(request: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
    if (this.ended) return Promise.reject(new Error("the SDK has closed stdin"));
    const requestId = randomUUID();
    return new Promise<JsonObject>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(requestId);
        this.options.write({ type: "control_cancel_request", request_id: requestId });
        reject(new Error("cancelled"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(requestId, {
        resolve: (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.options.write({ type: "control_request", request_id: requestId, request });
    });
  }

  write(line: JsonObject): void {
    this.options.write(line);
  }

  private flushEarly(): void {
    if (!this.handler || !this.userHandler) return;
    for (const deliver of this.early.splice(0)) deliver();
  }

  private receive(text: string): void {
    if (text.trim() === "") return;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch (error) {
      this.options.warn(`stdin: a line that is not JSON was skipped: ${(error as Error).message}`);
      return;
    }
    if (typeof line !== "object" || line === null || Array.isArray(line)) {
      this.options.warn("stdin: a line that is not a JSON object was skipped");
      return;
    }
    const message = line as JsonObject;
    this.options.debug?.(`in: ${text.length > 500 ? `${text.slice(0, 500)}…` : text}`);
    switch (message.type) {
      case "control_response":
        this.settle(message.response as JsonObject | undefined);
        return;
      case "control_request":
        this.deliver(() => void this.answer(message));
        return;
      case "user":
        this.deliver(() => this.userHandler?.(message as UserMessageLine));
        return;
      case "control_cancel_request":
        // We answer every request quickly or as part of a turn the SDK can interrupt.
        return;
      default:
        if (this.messageHandler && typeof message.type === "string") {
          const handler = this.messageHandler;
          this.deliver(() => handler(message));
          return;
        }
        this.options.warn(`stdin: a line of unknown type ${JSON.stringify(message.type)} was skipped`);
    }
  }

  private deliver(task: () => void): void {
    if (this.handler && this.userHandler && this.early.length === 0) task();
    else this.early.push(task);
  }

  private settle(response: JsonObject | undefined): void {
    const requestId = typeof response?.request_id === "string" ? response.request_id : undefined;
    const waiter = requestId === undefined ? undefined : this.pending.get(requestId);
    if (!response || !waiter || requestId === undefined) return;
    this.pending.delete(requestId);
    if (response.subtype === "error")
      waiter.reject(new Error(String(response.error ?? "the SDK answered with an error")));
    else waiter.resolve((response.response as JsonObject | undefined) ?? {});
  }

  private async answer(message: JsonObject): Promise<void> {
    const requestId = typeof message.request_id === "string" ? message.request_id : "";
    const request = (message.request as JsonObject | undefined) ?? {};
    try {
      if (!this.handler) throw new Error("not ready");
      const response = await this.handler(request, requestId);
      this.options.write({
        type: "control_response",
        response: { subtype: "success", request_id: requestId, response: response ?? {} },
      });
    } catch (error) {
      this.options.write({
        type: "control_response",
        response: {
          subtype: "error",
          request_id: requestId,
          error: error instanceof Error ? error.message : String(error),
        },
      });
    }
  }
}
