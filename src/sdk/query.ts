// query() in one process: the same stream session the Agent SDK drives as a child process
// (cli/control-protocol/), run here over in-memory streams, with this file as the SDK's side of
// the protocol. Options become the session's spec (./spec-of-options.ts: what the SDK's flags
// would say, as the object the stream session takes, checked by the same schema) and
// the initialize request (hooks, in-process MCP servers, agents, system prompt, output schema);
// the session's control requests are answered by the caller's functions (canUseTool, hook
// callbacks, tool() handlers); every line the session writes is yielded as a message.
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { JsonObject } from "../cli/control-protocol/channel.js";
import { runStreamSession } from "../cli/control-protocol/stream-session.js";
import { UsageError } from "../cli/flags/usage-error.js";
import type { SessionSpec } from "../cli/session/spec.js";
import { AbortError } from "./abort-error.js";
import { QueryControls } from "./query-controls.js";
import { SdkServerBridge } from "./sdk-server-bridge.js";
import { specOfOptions } from "./spec-of-options.js";
import type {
  ElicitationRequest,
  HookCallback,
  McpSdkServerConfigWithInstance,
  McpServerConfig,
  McpSetServersResult,
  Options,
  Query,
  SDKMessage,
  SDKUserMessage,
} from "./types.js";

export interface QueryParams {
  prompt: string | AsyncIterable<SDKUserMessage>;
  options?: Options;
}

/** What initialize carries: the functions stay here, the session gets their ids. */
function initializeRequest(
  options: Options,
  sdkServers: ReadonlyMap<string, McpSdkServerConfigWithInstance>,
  callbacks: Map<string, HookCallback>,
): JsonObject {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, matchers] of Object.entries(options.hooks ?? {})) {
    hooks[event] = (matchers ?? []).map((matcher) => ({
      ...(matcher.matcher !== undefined && { matcher: matcher.matcher }),
      hookCallbackIds: matcher.hooks.map((hook) => {
        const id = `hook_${callbacks.size}`;
        callbacks.set(id, hook);
        return id;
      }),
      ...(matcher.timeout !== undefined && { timeout: matcher.timeout }),
    }));
  }
  const system = options.systemPrompt;
  return {
    subtype: "initialize",
    ...(Object.keys(hooks).length > 0 && { hooks }),
    ...(sdkServers.size > 0 && { sdkMcpServers: [...sdkServers.keys()] }),
    ...(systemPromptBlocks(system) !== undefined && { systemPrompt: systemPromptBlocks(system) }),
    ...(typeof system === "object" &&
      !Array.isArray(system) &&
      system.type === "preset" &&
      system.append !== undefined && { appendSystemPrompt: system.append }),
    ...(options.agents && { agents: options.agents }),
    ...(options.outputFormat?.type === "json_schema" && { jsonSchema: options.outputFormat.schema }),
  };
}

/**
 * The system prompt's blocks as the Agent SDK sends them in initialize: not given, empty (the SDK
 * passes "" unless the claude_code preset is asked for); a string, an array of blocks or a custom
 * prompt as given; undefined for the preset (Warden's own prompt).
 */
function systemPromptBlocks(system: Options["systemPrompt"]): string[] | undefined {
  if (system === undefined) return [""];
  if (typeof system === "string") return [system];
  if (Array.isArray(system)) return system.map(String);
  if (system.type === "custom") return typeof system.prompt === "string" ? [system.prompt] : system.prompt.map(String);
  return undefined;
}

/** The control request's fields under the names the SDK's onElicitation receives. */
function elicitationRequestOf(request: JsonObject): ElicitationRequest {
  const optional = (value: unknown) => (typeof value === "string" ? value : undefined);
  const mode = request.mode === "url" || request.mode === "form" ? request.mode : undefined;
  const url = optional(request.url);
  const elicitationId = optional(request.elicitation_id);
  const schema = request.requested_schema;
  return {
    serverName: String(request.mcp_server_name),
    message: String(request.message ?? ""),
    ...(mode && { mode }),
    ...(url !== undefined && { url }),
    ...(elicitationId !== undefined && { elicitationId }),
    ...(typeof schema === "object" && schema !== null && { requestedSchema: schema as Record<string, unknown> }),
  };
}

class WardenQuery extends QueryControls implements Query {
  private readonly input = new PassThrough();
  private readonly messages: SDKMessage[] = [];
  private wake: (() => void) | undefined;
  private finished = false;
  private failure: Error | undefined;
  private readonly pending = new Map<string, { resolve: (value: JsonObject) => void; reject: (e: Error) => void }>();
  private readonly callbacks = new Map<string, HookCallback>();
  private readonly bridge: SdkServerBridge;
  private readonly abort: AbortController;
  private stderrText = "";
  private sent = 0;
  private results = 0;
  private promptsDone = false;
  /** Set once options.abortController fires: nothing more is delivered, the iteration ends with an AbortError. */
  private aborted = false;
  private abortReported = false;

  constructor(private readonly params: QueryParams) {
    super();
    const options = params.options ?? {};
    this.abort = options.abortController ?? new AbortController();
    const sdkServers = new Map(
      Object.entries(options.mcpServers ?? {}).filter(
        (entry): entry is [string, McpSdkServerConfigWithInstance] => entry[1].type === "sdk",
      ),
    );
    this.bridge = new SdkServerBridge(sdkServers);
    let config: SessionSpec;
    try {
      config = specOfOptions(options, sdkServers);
    } catch (error) {
      this.failure = error instanceof UsageError ? new Error(`invalid options: ${error.message}`) : (error as Error);
      this.finished = true;
      return;
    }
    const output = new PassThrough();
    createInterface({ input: output, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => this.receive(line));
    const session = runStreamSession(config, {
      input: this.input,
      output: (text) => void output.write(text),
      err: (text) => {
        this.stderrText += text;
        options.stderr?.(text);
      },
      ownsProcess: false,
    });
    session.then(
      (code) => {
        // Lines already written are delivered before the end.
        setImmediate(() => this.end(code === 0 || this.results > 0 ? undefined : this.setupError(code)));
      },
      (error: unknown) => this.end(error instanceof Error ? error : new Error(String(error))),
    );
    this.abort.signal.addEventListener("abort", () => this.onAbort(), { once: true });
    void this.request(initializeRequest(options, sdkServers, this.callbacks)).catch(() => undefined);
    // A controller aborted before the query started: the session gets no prompt and ends.
    if (this.abort.signal.aborted) this.onAbort();
    else void this.feed();
  }

  private setupError(code: number): Error {
    const said = this.stderrText.trim().split("\n").filter(Boolean).at(-1);
    return new Error(said ? said.replace(/^warden: /, "") : `the session ended with exit code ${code}`);
  }

  private send(line: JsonObject): void {
    if (!this.input.writableEnded) this.input.write(`${JSON.stringify(line)}\n`);
  }

  protected request(request: JsonObject): Promise<JsonObject> {
    const requestId = randomUUID();
    return new Promise((resolve, reject) => {
      if (this.finished) return reject(new Error("the query has ended"));
      this.pending.set(requestId, { resolve, reject });
      this.send({ type: "control_request", request_id: requestId, request });
    });
  }

  async setMcpServers(servers: Record<string, McpServerConfig>): Promise<McpSetServersResult> {
    if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
      throw new Error("setMcpServers: servers must be an object of server name to configuration");
    }
    const inProcess = new Map<string, McpSdkServerConfigWithInstance>();
    const wire: JsonObject = {};
    for (const [name, config] of Object.entries(servers)) {
      if (config.type === "sdk") {
        inProcess.set(name, config);
        // The instance stays here; the session reaches it by name through mcp_message.
        wire[name] = { type: "sdk", name };
      } else wire[name] = config;
    }
    await this.bridge.replace(inProcess);
    const answer = await this.request({ subtype: "mcp_set_servers", servers: wire });
    return {
      added: (answer.added as string[] | undefined) ?? [],
      removed: (answer.removed as string[] | undefined) ?? [],
      errors: (answer.errors as Record<string, string> | undefined) ?? {},
    };
  }

  /** Sends the prompt (or each message of the stream); the input ends once every prompt has its result. */
  private async feed(): Promise<void> {
    const { prompt } = this.params;
    try {
      if (typeof prompt === "string") {
        this.sendUser({ type: "user", message: { role: "user", content: prompt }, parent_tool_use_id: null });
      } else {
        for await (const message of prompt) {
          if (this.finished || this.abort.signal.aborted) break;
          this.sendUser(message);
        }
      }
    } finally {
      this.promptsDone = true;
      this.maybeCloseInput();
    }
  }

  private sendUser(message: SDKUserMessage): void {
    this.sent += 1;
    this.send({ ...message, session_id: message.session_id ?? "" });
  }

  private maybeCloseInput(): void {
    if (this.promptsDone && this.results >= this.sent && !this.input.writableEnded) this.input.end();
  }

  private receive(text: string): void {
    let line: JsonObject;
    try {
      line = JSON.parse(text) as JsonObject;
    } catch {
      return;
    }
    if (line.type === "control_response") {
      const response = (line.response ?? {}) as JsonObject;
      const waiter = this.pending.get(String(response.request_id));
      if (!waiter) return;
      this.pending.delete(String(response.request_id));
      // Answered after pending I/O, as across the SDK's pipe: a caller polling in a loop (a task's
      // output) must not starve the session's child processes of the event loop.
      setImmediate(() => {
        if (response.subtype === "error") waiter.reject(new Error(String(response.error)));
        else waiter.resolve((response.response as JsonObject | undefined) ?? {});
      });
      return;
    }
    if (line.type === "control_request") {
      void this.answer(String(line.request_id), (line.request ?? {}) as JsonObject);
      return;
    }
    if (line.type === "control_cancel_request") return;
    if (!this.aborted) this.messages.push(line as SDKMessage);
    if (line.type === "result") {
      this.results += 1;
      this.maybeCloseInput();
    }
    this.wake?.();
  }

  private async answer(requestId: string, request: JsonObject): Promise<void> {
    try {
      const response = await this.handle(request, requestId);
      this.send({
        type: "control_response",
        response: { subtype: "success", request_id: requestId, response: response ?? {} },
      });
    } catch (error) {
      this.send({
        type: "control_response",
        response: { subtype: "error", request_id: requestId, error: (error as Error).message ?? String(error) },
      });
    }
  }

  private async handle(request: JsonObject, requestId: string): Promise<JsonObject | undefined> {
    const options = this.params.options ?? {};
    switch (request.subtype) {
      case "can_use_tool": {
        if (!options.canUseTool) throw new Error("no canUseTool was given");
        const result = await options.canUseTool(String(request.tool_name), (request.input ?? {}) as JsonObject, {
          signal: this.abort.signal,
          suggestions: (request.permission_suggestions ?? []) as JsonObject[] as never,
          toolUseID: String(request.tool_use_id ?? ""),
          ...(typeof request.decision_reason === "string" && { decisionReason: request.decision_reason }),
        });
        return result as unknown as JsonObject;
      }
      case "hook_callback": {
        const callback = this.callbacks.get(String(request.callback_id));
        if (!callback) throw new Error(`no hook callback ${String(request.callback_id)}`);
        const toolUseId = typeof request.tool_use_id === "string" ? request.tool_use_id : undefined;
        return callback((request.input ?? {}) as JsonObject, toolUseId, { signal: this.abort.signal });
      }
      case "elicitation": {
        // As the SDK does: with no callback, the server's question is declined.
        if (!options.onElicitation) return { action: "decline" };
        const result = await options.onElicitation(elicitationRequestOf(request), {
          signal: this.abort.signal,
          requestId,
        });
        return result as unknown as JsonObject;
      }
      case "mcp_message": {
        const reply = await this.bridge.handle(String(request.server_name), request.message as JSONRPCMessage);
        return reply ? { mcp_response: reply } : {};
      }
      default:
        throw new Error(`unsupported control request: ${JSON.stringify(request.subtype)}`);
    }
  }

  private end(failure?: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.failure ??= failure;
    for (const waiter of this.pending.values()) waiter.reject(new Error("the query has ended"));
    this.pending.clear();
    if (!this.input.writableEnded) this.input.end();
    void this.bridge.close();
    this.wake?.();
  }

  /**
   * As the Agent SDK's abort (which kills its child process): the turn is interrupted, nothing it
   * says afterwards is delivered, and the iteration ends with an AbortError once the session has
   * stopped (its transcript complete, for a later resume).
   */
  private onAbort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.messages.length = 0;
    void this.stop();
  }

  private async stop(): Promise<void> {
    await this.interrupt().catch(() => undefined);
    this.promptsDone = true;
    if (!this.input.writableEnded) this.input.end();
  }

  async next(): Promise<IteratorResult<SDKMessage, void>> {
    while (this.messages.length === 0 && !this.finished) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
    const message = this.messages.shift();
    if (message) return { value: message, done: false };
    if (this.aborted && !this.abortReported) {
      this.abortReported = true;
      throw new AbortError("the query was aborted by its abortController");
    }
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
    return { value: undefined, done: true };
  }

  async return(): Promise<IteratorResult<SDKMessage, void>> {
    await this.stop();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<SDKMessage, void>> {
    await this.stop();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

export function startQuery(params: QueryParams): Query {
  return new WardenQuery(params);
}
