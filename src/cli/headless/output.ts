// What a headless session prints. stream-json is one JSON object per line, shaped like Claude
// Code's so existing consumers can read it: system/init, assistant, user, then one result line.
// json prints only the result object (with --verbose, as Claude Code does: one JSON array of every
// line stream-json would print, the result last); text prints only the final answer.

import type { QueryEvent, TerminalEvent } from "../../loop/events.js";
import type { ServerLogMessage } from "../../mcp/client-features/types.js";
import type { AssistantMessage, Usage, UserMessage } from "../../messages/types.js";
import { emptyUsage, textOf, toolResultText } from "../../messages/types.js";
import type { PermissionDenialRecord } from "../../orchestration/run-tool-use.js";
import type { OutputFormat } from "../flags/session-config.js";
import type { InitInfo } from "../session/init-info.js";
import { monotonicMs } from "../startup/monotonic.js";
import { wardenVersion } from "../version.js";
import { apiContent } from "./api-content.js";
import { CallOrder, MAIN_STREAM } from "./call-order.js";
import { PartialMessages } from "./partial-messages.js";
import {
  fullUsage,
  REASON_TEXT,
  type ResultObject,
  type SessionCosts,
  type StructuredOutcome,
  subtypeOf,
} from "./result-shape.js";

export type { ResultObject, ResultSubtype, SessionCosts, StructuredOutcome } from "./result-shape.js";

export class HeadlessReporter {
  private lastAssistant: AssistantMessage | undefined;
  private apiStartedAt: number | undefined;
  private apiMs = 0;
  /** --include-partial-messages: the model's answer as Anthropic stream events while it streams. */
  private partial: PartialMessages | undefined;
  /** The model of the last init line (a switch of model shows in the next one). */
  private bareModel = "";
  /** What has been written of each streamed message: questions about a call wait for its message. */
  readonly callOrder = new CallOrder();
  /** Foreground subagents whose model request is being written (closed when the main loop goes on). */
  private readonly openSubagents = new Set<string>();
  /**
   * json with --verbose: the lines stream-json would print, kept for the one array printed at the
   * end (Claude Code's shape there; a script written against it reads the result as the last item).
   */
  private readonly collected: object[] | undefined;

  constructor(
    private readonly format: OutputFormat,
    private readonly out: (text: string) => void,
    private readonly err: (text: string) => void,
    private readonly sessionId: string,
    private readonly verbose: boolean,
  ) {
    this.collected = format === "json" && verbose ? [] : undefined;
  }

  /** Whether the session's messages are written out (stream-json, or collected for json --verbose). */
  get streamsMessages(): boolean {
    return this.format === "stream-json" || this.collected !== undefined;
  }

  init(info: InitInfo): void {
    this.bareModel = info.bareModel;
    if (!this.streamsMessages) return;
    this.line({
      type: "system",
      subtype: "init",
      cwd: info.cwd,
      session_id: info.sessionId,
      model: info.bareModel,
      tools: info.tools,
      mcp_servers: info.mcpServers,
      permissionMode: info.permissionMode,
      workspace_trust: info.workspaceTrust,
      agents: info.agents,
      ...(info.agentErrors.length > 0 ? { agent_errors: info.agentErrors } : {}),
      ...(info.warnings.length > 0 ? { warnings: info.warnings } : {}),
      apiKeySource: info.apiKeySource,
      claude_code_version: wardenVersion(),
      slash_commands: info.slashCommands,
      output_style: info.outputStyle,
      skills: info.skills,
      plugins: info.plugins,
      uuid: crypto.randomUUID(),
    });
  }

  /** Partial messages (`stream_event` lines) from now on. */
  includePartialMessages(): void {
    if (this.format === "stream-json")
      this.partial = new PartialMessages(
        (line) => this.line(line),
        this.sessionId,
        () => this.bareModel,
      );
  }

  /** A new prompt of a stream-json input session: the result line will speak of it alone. */
  startTurn(): void {
    this.lastAssistant = undefined;
    this.apiMs = 0;
    this.apiStartedAt = undefined;
  }

  /**
   * A failed model request about to be retried: Claude Code's `api_retry` line in stream-json, a
   * line on stderr in the other formats (stdout stays the answer alone). Without it a server that
   * cannot be reached kept a script waiting through every retry (~2 minutes) with no word.
   */
  apiRetry(info: {
    retry: number;
    maxRetries: number;
    delayMs: number;
    status: number | undefined;
    error: string;
  }): void {
    if (!this.streamsMessages) {
      const seconds =
        info.delayMs < 10_000 ? (info.delayMs / 1000).toFixed(1) : String(Math.round(info.delayMs / 1000));
      const status = info.status === undefined ? "" : `${info.status}: `;
      this.err(
        `warden: the model request failed (${status}${info.error}); trying again in ${seconds} s (retry ${info.retry} of ${info.maxRetries})\n`,
      );
      return;
    }
    this.line({
      type: "system",
      subtype: "api_retry",
      attempt: info.retry,
      max_retries: info.maxRetries,
      retry_delay_ms: info.delayMs,
      error_status: info.status ?? null,
      error:
        info.status === 429
          ? "rate_limit"
          : info.status !== undefined && info.status >= 500
            ? "server_error"
            : "unknown",
      error_message: info.error,
      session_id: this.sessionId,
      uuid: crypto.randomUUID(),
    });
  }

  /** Any other line of the stream (system status lines of the control protocol). */
  system(fields: Record<string, unknown>): void {
    if (this.streamsMessages)
      this.line({ type: "system", ...fields, session_id: this.sessionId, uuid: crypto.randomUUID() });
  }

  event(event: QueryEvent): void {
    this.partial?.event(event);
    switch (event.type) {
      case "request_start":
        this.apiStartedAt = monotonicMs();
        this.endSubagentStreams();
        this.callOrder.streamStarted(MAIN_STREAM);
        return;
      case "assistant":
        this.stopApiClock();
        this.lastAssistant = event.message;
        if (this.streamsMessages) this.line(this.assistantLine(event.message, null, this.partial?.takeMessageId()));
        this.callOrder.shown(toolUseIdsOf(event.message));
        this.callOrder.streamEnded(MAIN_STREAM);
        return;
      case "user":
        // The main loop goes on (an Agent call's result): its subagent has no message left to write.
        this.endSubagentStreams();
        if (this.streamsMessages) this.line(this.userLine(event.message, null));
        return;
      case "tool_result":
        if (this.verbose && !this.streamsMessages) {
          // A refused call is not a failed one: say which, as a script reading stderr needs to know.
          const status = event.denial ? "denied" : event.result.is_error ? "error" : "ok";
          const text = toolResultText(event.result.content);
          this.err(
            `[tool] ${event.toolUse.name} ${JSON.stringify(event.toolUse.input)} -> ${status} (${text.length} chars)\n`,
          );
        }
        return;
      case "todo":
        // The task list as it now is, for a consumer's progress panel (not a Claude Code line type).
        if (this.streamsMessages) {
          this.line({
            type: "todo",
            family: event.list.family,
            todos: event.list.items,
            session_id: this.sessionId,
            uuid: crypto.randomUUID(),
          });
        }
        return;
      case "brief":
        // A message the model sent the user while working (SendUserMessage; not a Claude Code line type).
        if (this.streamsMessages) {
          this.line({
            type: "brief",
            message: event.message.message,
            attachments: event.message.attachments,
            status: event.message.status,
            session_id: this.sessionId,
            uuid: crypto.randomUUID(),
          });
        } else {
          this.err(`${event.message.message}\n`);
        }
        return;
      case "compact_boundary":
        // Claude Code's shape: consumers learn the conversation was summarised and how big it was.
        if (this.streamsMessages) {
          this.line({
            type: "system",
            subtype: "compact_boundary",
            session_id: this.sessionId,
            compact_metadata: { trigger: event.trigger, pre_tokens: event.preTokens, post_tokens: event.postTokens },
            uuid: crypto.randomUUID(),
          });
        }
        return;
      case "notice":
        this.err(`warden: ${event.message}\n`);
        return;
      case "terminal":
        this.stopApiClock();
        this.endSubagentStreams();
        this.callOrder.streamEnded(MAIN_STREAM);
        return;
      default:
        return;
    }
  }

  /**
   * An event of a foreground subagent's loop: its messages are streamed as Claude Code streams
   * them, with `parent_tool_use_id` naming the Agent call it runs for. The run's result line speaks
   * of the main loop only, so nothing else is taken from them.
   */
  subagentEvent(parentToolUseId: string, event: QueryEvent): void {
    switch (event.type) {
      case "request_start":
        this.openSubagents.add(parentToolUseId);
        this.callOrder.streamStarted(parentToolUseId);
        return;
      case "assistant":
        if (this.streamsMessages) this.line(this.assistantLine(event.message, parentToolUseId));
        this.callOrder.shown(toolUseIdsOf(event.message));
        this.openSubagents.delete(parentToolUseId);
        this.callOrder.streamEnded(parentToolUseId);
        return;
      case "user":
        if (this.streamsMessages) this.line(this.userLine(event.message, parentToolUseId));
        return;
      case "terminal":
        this.openSubagents.delete(parentToolUseId);
        this.callOrder.streamEnded(parentToolUseId);
        return;
      default:
        return;
    }
  }

  private endSubagentStreams(): void {
    for (const id of this.openSubagents) this.callOrder.streamEnded(id);
    this.openSubagents.clear();
  }

  /**
   * A log message from an MCP server: a `system` line in stream-json, a stderr line in the other
   * formats; shown only with --verbose (the level the servers send at is set in settings).
   */
  serverLog(message: ServerLogMessage): void {
    if (!this.verbose) return;
    if (this.streamsMessages) {
      this.line({
        type: "system",
        subtype: "mcp_log",
        server: message.server,
        level: message.level,
        ...(message.logger !== undefined && { logger: message.logger }),
        data: message.data,
        session_id: this.sessionId,
        uuid: crypto.randomUUID(),
      });
      return;
    }
    const data = typeof message.data === "string" ? message.data : JSON.stringify(message.data);
    this.err(`[mcp ${message.server}] ${message.level}: ${data}\n`);
  }

  /** Prints the outcome as the format wants it and returns the result object. */
  finish(
    terminal: TerminalEvent,
    durationMs: number,
    denials: readonly PermissionDenialRecord[],
    costs: SessionCosts,
    /** The result text when it is not the last answer (a manual compaction reports what it did). */
    resultText?: string,
    /** Set for `--json-schema` runs. */
    structured?: StructuredOutcome,
    notices: readonly string[] = [],
  ): ResultObject {
    const missingOutput =
      structured !== undefined && structured.output === undefined && terminal.reason === "completed";
    // The data asked for was recorded: the run did its job, even if the turn limit came next.
    const outputThenLimit = structured?.output !== undefined && terminal.reason === "max_turns";
    const subtype = missingOutput
      ? "error_max_structured_output_retries"
      : outputThenLimit
        ? "success"
        : subtypeOf(terminal.reason);
    const result: ResultObject = {
      type: "result",
      subtype,
      is_error: subtype !== "success",
      duration_ms: Math.round(durationMs),
      duration_api_ms: Math.round(this.apiMs),
      num_turns: terminal.turnCount,
      result: resultText ?? (this.lastAssistant ? textOf(this.lastAssistant) : ""),
      session_id: this.sessionId,
      total_cost_usd: costs.totalCostUsd,
      usage: fullUsage(terminal.usage) as Usage,
      modelUsage: costs.modelUsage,
      permission_denials: denials.map((d) => ({
        tool_name: d.tool_name,
        tool_use_id: d.tool_use_id,
        tool_input: d.tool_input,
      })),
      terminal_reason: terminal.reason,
      stop_reason: this.lastAssistant?.stopReason ?? null,
      uuid: crypto.randomUUID(),
    };
    if (structured?.output !== undefined) result.structured_output = structured.output.data;
    if (missingOutput) {
      result.error = "the model never called StructuredOutput with data matching the JSON schema (--json-schema)";
    } else if (subtype !== "success") {
      const why = REASON_TEXT[terminal.reason];
      result.error = terminal.error ? `${why}: ${terminal.error}` : why;
    }
    if (result.error !== undefined) result.errors = [result.error];
    // A hook's stopReason is for the person, as Claude Code shows it: a notice beside the result.
    const shown =
      terminal.reason === "hook_stopped"
        ? [...notices, `${REASON_TEXT.hook_stopped}: ${terminal.hookStopReason}`]
        : notices;
    if (shown.length > 0) result.notices = [...shown];
    if (this.format === "text") {
      for (const notice of shown) this.err(`warden: ${notice}\n`);
      // A --json-schema run's answer is its data: printed as JSON, ready for a pipe.
      if (structured?.output !== undefined) this.out(`${JSON.stringify(structured.output.data)}\n`);
      else if (result.result) this.out(result.result.endsWith("\n") ? result.result : `${result.result}\n`);
      if (result.error) this.err(`warden: ${result.error}\n`);
    } else if (this.collected) {
      this.collected.push(result);
      this.out(`${JSON.stringify(this.collected)}\n`);
    } else {
      this.line(result);
    }
    return result;
  }

  private stopApiClock(): void {
    if (this.apiStartedAt === undefined) return;
    this.apiMs += monotonicMs() - this.apiStartedAt;
    this.apiStartedAt = undefined;
  }

  private assistantLine(message: AssistantMessage, parentToolUseId: string | null, streamedId?: string): object {
    return {
      type: "assistant",
      message: {
        id: streamedId ?? `msg_${crypto.randomUUID().replaceAll("-", "")}`,
        type: "message",
        role: "assistant",
        model: message.model,
        content: apiContent(message.content),
        stop_reason: message.stopReason ?? null,
        stop_sequence: null,
        // Claude Code consumers read usage fields without a null check: a model that reported
        // none is shown as zero tokens.
        usage: fullUsage(message.usage ?? emptyUsage()),
      },
      parent_tool_use_id: parentToolUseId,
      session_id: this.sessionId,
      uuid: crypto.randomUUID(),
    };
  }

  private userLine(message: UserMessage, parentToolUseId: string | null): object {
    return {
      type: "user",
      message: { role: "user", content: message.content },
      ...(message.isMeta ? { isMeta: true } : {}),
      parent_tool_use_id: parentToolUseId,
      session_id: this.sessionId,
      uuid: crypto.randomUUID(),
    };
  }

  private line(value: object): void {
    if (this.collected) this.collected.push(value);
    else this.out(`${JSON.stringify(value)}\n`);
  }
}

function toolUseIdsOf(message: AssistantMessage): string[] {
  return message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
}
