// query(): the agent loop. Call the model, run the tools it asked for, feed the results back,
// repeat until a turn asks for no tool. Every tool_use gets exactly one tool_result whatever
// happens (abort, model failure, turn limit), because a conversation with an unpaired tool_use is
// rejected by the model API and could never be resumed.

import { type ContextManagementOptions, contextThresholds } from "../context/thresholds.js";
import { estimatePrefixTokens, estimateRequestTokens } from "../context/token-estimate.js";
import {
  type AssistantContentBlock,
  type AssistantMessage,
  addUsage,
  emptyUsage,
  type Message,
  type StopReason,
  type ToolResultBlock,
  type ToolUseBlock,
  toolUsesOf,
  type Usage,
  type UserMessage,
  userText,
} from "../messages/types.js";
import type { UsageLedger } from "../models/cost.js";
import { type ModelInfo, modelInfoFor } from "../models/resolve.js";
import { wasInterruptedByNewMessage } from "../orchestration/interrupts.js";
import { errorResult } from "../orchestration/run-tool-use.js";
import { type Provider, ProviderError, type ProviderEvent } from "../providers/types.js";
import { budgetRequestMessages } from "../results/budget.js";
import { currentTaskList, MAIN_TODO_LIST, taskListRevision } from "../tool/task-list.js";
import type { CanUseTool, ToolUseContext } from "../tool/types.js";
import type { QueryEvent, TerminalEvent, TerminalReason } from "./events.js";
import { StreamingToolTurn } from "./execute-tools.js";
import { SessionAttachments } from "./reminders.js";
import { toRequestMessages } from "./request-messages.js";
import type { RequestPrefixCache } from "./request-prefix.js";
import { todayISODate } from "./system-prompt.js";

export const MAX_OUTPUT_TOKENS_RECOVERIES = 3;
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000;

export const INTERRUPTED_BY_USER = "[Request interrupted by user]";
export const INTERRUPTED_DURING_TOOLS = "[Request interrupted by user for tool use]";
export const CONTINUE_AFTER_MAX_TOKENS =
  "Your last response was cut off at the output token limit. Continue exactly where it stopped: do not apologise, repeat or summarise what you already wrote. If much remains, split the rest into smaller steps.";

export interface QueryParams {
  /** The conversation so far, ending with the new user message. Not mutated. */
  messages: readonly Message[];
  provider: Provider;
  /** The model name as the provider expects it (no `provider:` prefix). */
  model: string;
  context: ToolUseContext;
  canUseTool: CanUseTool;
  prefix: RequestPrefixCache;
  /** Model requests allowed in this query; unlimited when undefined. */
  maxTurns?: number;
  maxOutputTokens?: number;
  /** The model's window, output limit and price; looked up from the provider and model when absent. */
  modelInfo?: ModelInfo;
  /** Where each response's usage is added up by model and priced (the session's, across prompts). */
  ledger?: UsageLedger;
  /** Ends the query with `max_budget_usd` once the ledger's cost reaches this many USD. */
  maxBudgetUsd?: number;
  /** The session's attachments (reminders before each request); a query of its own gets fresh ones. */
  attachments?: SessionAttachments;
  /** When context strategies fire (defaults from the model's window). */
  contextManagement?: ContextManagementOptions;
  /** The clock (tests move it; the date-change reminder reads it). */
  now?: () => Date;
}

interface StreamedTurn {
  blocks: AssistantContentBlock[];
  stopReason?: StopReason;
  usage?: Usage;
}

type StreamOutcome =
  | { kind: "done"; turn: StreamedTurn }
  | { kind: "aborted"; turn: StreamedTurn }
  | { kind: "error"; turn: StreamedTurn; error: unknown };

/** Events of one streamed model response, passed through as loop events while the turn is built. */
async function* streamTurn(
  provider: Provider,
  request: Parameters<Provider["stream"]>[0],
  signal: AbortSignal,
  toolTurn?: StreamingToolTurn,
): AsyncGenerator<QueryEvent, StreamOutcome> {
  const turn: StreamedTurn = { blocks: [] };
  let iterator: AsyncIterator<ProviderEvent> | undefined;
  let streamEnded = false;
  // One listener per request: racing every next() against it makes abort take effect at once even
  // when a provider does not watch its signal.
  let onAbort: () => void = () => {};
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    iterator = provider.stream(request)[Symbol.asyncIterator]();
    while (true) {
      if (signal.aborted) return { kind: "aborted", turn };
      const pending = iterator.next();
      // If abort wins the race, this promise may still reject later; it must not go unhandled.
      pending.catch(() => {});
      const next = await Promise.race([pending, aborted]);
      if (next === "aborted") return { kind: "aborted", turn };
      if (next.done) {
        streamEnded = true;
        return { kind: "done", turn };
      }
      const event = next.value;
      switch (event.type) {
        case "text_delta":
          yield { type: "text_delta", text: event.text };
          break;
        case "thinking_delta":
          yield { type: "thinking_delta", thinking: event.thinking };
          break;
        case "block":
          turn.blocks.push(event.block);
          // A complete tool_use starts now, while the model is still writing the rest.
          toolTurn?.onBlock(event.block, turn.blocks, request.model);
          break;
        case "usage":
          turn.usage = event.usage;
          break;
        case "stop":
          turn.stopReason = event.stopReason;
          break;
        case "reset":
          // The provider restarted the stream after a cut; what came before is void.
          turn.blocks = [];
          turn.usage = undefined;
          turn.stopReason = undefined;
          toolTurn?.onReset();
          yield { type: "stream_reset" };
          break;
      }
      // Progress and results of calls started mid-stream are shown now, not when the response ends.
      // (A plain loop, not yield*: delegating to a sync generator from an async one costs
      // microtask turns on every stream event even when nothing is ready.)
      for (const event of toolTurn?.readyEvents() ?? []) yield event;
    }
  } catch (error) {
    streamEnded = true;
    if (signal.aborted) return { kind: "aborted", turn };
    return { kind: "error", turn, error };
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Aborted, or our consumer stopped early: close the provider's stream so its connection is
    // released. Not awaited: a provider stuck in a network read must not hold the loop.
    if (!streamEnded && iterator?.return) iterator.return(undefined).catch(() => {});
  }
}

function assistantOf(turn: StreamedTurn, model: string): AssistantMessage {
  const message: AssistantMessage = { role: "assistant", content: turn.blocks, model };
  if (turn.stopReason) message.stopReason = turn.stopReason;
  if (turn.usage) message.usage = turn.usage;
  return message;
}

function toolResultsMessage(results: ToolResultBlock[]): UserMessage {
  return { role: "user", content: results };
}

/** The results of a turn cut short: real ones for calls that finished, synthetic for the rest. */
async function settledResults(
  toolTurn: StreamingToolTurn,
  toolUses: readonly ToolUseBlock[],
  model: string,
): Promise<ToolResultBlock[]> {
  let failure: { error: unknown } | undefined;
  try {
    // Drained, not shown: the turn was cut short; its results go into the conversation only.
    const events = toolTurn.remainingEvents(toolUses, { role: "assistant", content: [...toolUses], model });
    while (!(await events.next()).done);
  } catch (error) {
    failure = { error };
  }
  const { results } = toolTurn.resultsFor(toolUses);
  if (failure) {
    results.push(...missingResults(toolUses, results, `Error: tool execution failed: ${describeError(failure.error)}`));
  }
  return [...results, ...missingResults(toolUses, results, INTERRUPTED_BY_USER)];
}

/** Error results for the tool calls that have none yet (a guard: the executor should pair them all). */
function missingResults(
  toolUses: readonly ToolUseBlock[],
  results: readonly ToolResultBlock[],
  text: string,
): ToolResultBlock[] {
  const answered = new Set(results.map((r) => r.tool_use_id));
  return toolUses.filter((t) => !answered.has(t.id)).map((t) => errorResult(t.id, text));
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The agent loop as an AsyncGenerator. Yields display events and every message that joins the
 * conversation (`assistant`, `user`), and ends with exactly one `terminal` event (also returned).
 */
export async function* query(params: QueryParams): AsyncGenerator<QueryEvent, TerminalEvent> {
  const { provider, model, canUseTool, prefix, ledger } = params;
  const modelInfo = params.modelInfo ?? modelInfoFor(provider.name, model);
  // The model's own limit caps what we ask for: a request above it is refused outright.
  const maxTokens = Math.min(params.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS, modelInfo.maxOutputTokens);
  const thresholds = contextThresholds(modelInfo, params.contextManagement);
  const now = params.now ?? (() => new Date());
  const attachments = params.attachments ?? new SessionAttachments({ startDate: todayISODate(now()), prefix });
  const messages: Message[] = [...params.messages];
  let context = params.context;
  const signal = context.abortController.signal;
  let turnCount = 0;
  let recoveries = 0;
  let usage = emptyUsage();
  // The task list as last shown to consumers: a change during a turn's tool calls becomes a `todo` event.
  const listKey = context.agentId ?? MAIN_TODO_LIST;
  let listRevision = taskListRevision(context.getAppState(), listKey);
  /** A `todo` event when the list changed since the last one (a plain call: no generator per turn). */
  const taskListChange = (): QueryEvent | undefined => {
    const revision = taskListRevision(context.getAppState(), listKey);
    if (revision === listRevision) return undefined;
    listRevision = revision;
    const list = currentTaskList(context.getAppState(), listKey);
    return list ? { type: "todo", list } : undefined;
  };

  const terminal = (reason: TerminalReason, error?: string): TerminalEvent => {
    const event: TerminalEvent = { type: "terminal", reason, turnCount, usage };
    if (error !== undefined) event.error = error;
    return event;
  };
  const add = (message: UserMessage | AssistantMessage): QueryEvent => {
    messages.push(message);
    return message.role === "user" ? { type: "user", message } : { type: "assistant", message };
  };

  while (true) {
    if (signal.aborted) {
      // Stopped by a new message: that message follows as the next prompt, no note needed.
      if (!wasInterruptedByNewMessage(signal)) yield add(userText(INTERRUPTED_BY_USER));
      return yield* finish(terminal("aborted_streaming"));
    }
    if (overBudget(ledger, params.maxBudgetUsd)) return yield* finish(terminal("max_budget_usd"));
    const requestPrefix = await prefix.prefixFor({ ...context, messages });
    const { system, tools } = requestPrefix;
    // Reminders (changed files, hook context, queued messages...) join the conversation first.
    const reminders = await attachments.collect({
      context: { ...context, messages },
      now: now(),
      contextUsage: {
        // The last response's usage and what joined the conversation since.
        estimatedTokens: estimateRequestTokens(messages, estimatePrefixTokens(requestPrefix)),
        contextWindow: modelInfo.contextWindow,
        compactAt: thresholds.autoCompactAt,
      },
      budget:
        params.maxBudgetUsd === undefined || !ledger
          ? undefined
          : { spentUsd: ledger.totalCostUSD, maxUsd: params.maxBudgetUsd },
    });
    for (const reminder of reminders) yield add(reminder);

    turnCount++;
    yield { type: "request_start", turn: turnCount };
    // Per-message result budget with frozen decisions: earlier turns go out byte for byte the same.
    const requestMessages = await budgetRequestMessages(toRequestMessages(messages), context);
    const toolTurn = new StreamingToolTurn({ ...context, messages }, canUseTool);
    const outcome = yield* streamTurn(
      provider,
      {
        model,
        system,
        messages: requestMessages,
        tools,
        maxTokens,
        signal,
      },
      signal,
      toolTurn,
    );
    usage = addUsage(usage, outcome.turn.usage);
    ledger?.add(modelInfo, outcome.turn.usage);

    if (outcome.kind !== "done") {
      // Keep what the model finished before the stop, and pair its tool calls.
      const partialToolUses: ToolUseBlock[] = [];
      if (outcome.turn.blocks.length > 0) {
        const partial = assistantOf(outcome.turn, model);
        yield add(partial);
        partialToolUses.push(...toolUsesOf(partial));
      }
      if (outcome.kind === "aborted") {
        // Calls that started while streaming keep their real result if they finished.
        if (partialToolUses.length > 0) {
          yield add(toolResultsMessage(await settledResults(toolTurn, partialToolUses, model)));
          const listEvent = taskListChange();
          if (listEvent) yield listEvent;
        }
        if (!wasInterruptedByNewMessage(signal)) yield add(userText(INTERRUPTED_BY_USER));
        return yield* finish(terminal("aborted_streaming"));
      }
      const message = describeError(outcome.error);
      if (partialToolUses.length > 0) {
        toolTurn.abort("discarded");
        yield add(toolResultsMessage(await settledResults(toolTurn, partialToolUses, model)));
      }
      const tooLong = outcome.error instanceof ProviderError && outcome.error.kind === "prompt_too_long";
      return yield* finish(terminal(tooLong ? "prompt_too_long" : "model_error", message));
    }

    const assistant = assistantOf(outcome.turn, model);
    yield add(assistant);
    const toolUses = toolUsesOf(assistant);

    if (toolUses.length === 0) {
      if (assistant.stopReason === "max_tokens") {
        if (recoveries >= MAX_OUTPUT_TOKENS_RECOVERIES) return yield* finish(terminal("max_output_tokens"));
        recoveries++;
        yield add(userText(CONTINUE_AFTER_MAX_TOKENS, true));
        continue;
      }
      return yield* finish(terminal("completed"));
    }

    let failure: { error: unknown } | undefined;
    try {
      // Results shown while the model streamed were emitted then; these are the rest.
      context = { ...(yield* toolTurn.remainingEvents(toolUses, assistant)), messages };
    } catch (error) {
      // The executor broke its contract; the calls it left without a result are paired below.
      failure = { error };
    }
    const { results, newMessages } = toolTurn.resultsFor(toolUses);
    if (failure) {
      results.push(
        ...missingResults(toolUses, results, `Error: tool execution failed: ${describeError(failure.error)}`),
      );
    }
    results.push(...missingResults(toolUses, results, "Error: the tool call produced no result."));
    yield add(toolResultsMessage(results));
    for (const extra of newMessages) yield add(extra);
    const listEvent = taskListChange();
    if (listEvent) yield listEvent;

    if (signal.aborted) {
      if (!wasInterruptedByNewMessage(signal)) yield add(userText(INTERRUPTED_DURING_TOOLS));
      return yield* finish(terminal("aborted_tools"));
    }
    if (params.maxTurns !== undefined && turnCount >= params.maxTurns) {
      return yield* finish(terminal("max_turns"));
    }
  }
}

/** True once a budget is set and the known cost has reached it (an unknown cost never ends a query). */
function overBudget(ledger: UsageLedger | undefined, maxBudgetUsd: number | undefined): boolean {
  if (!ledger || maxBudgetUsd === undefined) return false;
  const spent = ledger.totalCostUSD;
  return spent !== null && spent >= maxBudgetUsd;
}

/** Yields the terminal event and returns it, so callers can use either. */
async function* finish(event: TerminalEvent): AsyncGenerator<QueryEvent, TerminalEvent> {
  yield event;
  return event;
}
