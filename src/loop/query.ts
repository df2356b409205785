// query(): the agent loop. Call the model, run the tools it asked for, feed the results back,
// repeat until a turn asks for no tool. Every tool_use gets exactly one tool_result whatever
// happens (abort, model failure, turn limit), because a conversation with an unpaired tool_use is
// rejected by the model API and could never be resumed.

import { type ContextManagementOptions, contextThresholds } from "../context/thresholds.js";
import { estimatePrefixTokens, estimateRequestTokens } from "../context/token-estimate.js";
import { runPostToolBatchHooks } from "../hooks/tool-hooks.js";
import {
  type AssistantMessage,
  addUsage,
  emptyUsage,
  type Message,
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
import {
  type ModelRequest,
  type Provider,
  ProviderError,
  type RequestAgent,
  type ThinkingSetting,
} from "../providers/types.js";
import { currentTaskList, MAIN_TODO_LIST, taskListRevision } from "../tool/task-list.js";
import type { CanUseTool, ToolUseContext } from "../tool/types.js";
import { ContextManager } from "./context-manager.js";
import type { QueryEvent, TerminalEvent, TerminalReason } from "./events.js";
import { StreamingToolTurn } from "./execute-tools.js";
import { SessionAttachments } from "./reminders.js";
import type { RequestPrefixCache } from "./request-prefix.js";
import { assistantOf, streamTurn } from "./stream-turn.js";
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
  /** The session's context manager (it remembers the previous request); a query of its own gets a fresh one. */
  contextManager?: ContextManager;
  /** Set for a subagent's loop: passed on with every model request (ModelRequest.agent). */
  agent?: RequestAgent;
  /** How the model may think, read before each request (the Agent SDK may change it between prompts). */
  thinking?: () => ThinkingSetting | undefined;
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
  /** Set while the retry after a reactive compaction is under way: a second prompt_too_long ends the query. */
  let reactiveCompactionTried = false;
  const contextManager =
    params.contextManager ?? new ContextManager({ provider, model, modelInfo, thresholds, attachments, ledger, now });

  const terminal = (reason: TerminalReason, error?: string): TerminalEvent => {
    const event: TerminalEvent = { type: "terminal", reason, turnCount, usage };
    if (error !== undefined) event.error = error;
    return event;
  };
  const add = (message: UserMessage | AssistantMessage): QueryEvent => {
    messages.push(message);
    return message.role === "user" ? { type: "user", message } : { type: "assistant", message };
  };

  // A stop a hook asked for in an earlier query that ended another way does not carry over.
  context.channels.hookStop.clear();
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

    // Budget, snip, microcompact, and autocompaction when the request would not fit.
    const requestMessages = yield* withCompactionUsage(
      contextManager.prepare(messages, { ...context, messages }, requestPrefix),
      (more) => {
        usage = addUsage(usage, more);
      },
    );

    turnCount++;
    yield { type: "request_start", turn: turnCount };
    // The turn's calls see the request as sent: a fork continues it byte for byte.
    const renderedRequest = { system, tools, messages: requestMessages };
    const toolTurn = new StreamingToolTurn({ ...context, messages, renderedRequest }, canUseTool);
    const modelRequest: ModelRequest = { model, system, messages: requestMessages, tools, maxTokens, signal };
    if (params.agent) modelRequest.agent = params.agent;
    const thinking = params.thinking?.();
    if (thinking) modelRequest.thinking = thinking;
    const outcome = yield* streamTurn(provider, modelRequest, signal, toolTurn);
    usage = addUsage(usage, outcome.turn.usage);
    const answeredBy = outcome.turn.answeredBy;
    ledger?.add(answeredBy ? modelInfoFor(answeredBy.provider, answeredBy.model) : modelInfo, outcome.turn.usage);

    if (outcome.kind !== "done") {
      // Keep what the model finished before the stop, and pair its tool calls.
      const partialToolUses: ToolUseBlock[] = [];
      if (outcome.turn.blocks.length > 0) {
        const partial = assistantOf(outcome.turn, answeredBy?.model ?? model);
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
      if (tooLong && !reactiveCompactionTried && outcome.turn.blocks.length === 0) {
        // Reactive compaction: the provider counted more than we estimated. Compact, then try once more.
        reactiveCompactionTried = true;
        const compacted = yield* withCompactionUsage(
          contextManager.compact(messages, { ...context, messages }, requestPrefix, {
            trigger: "auto",
            continueWork: true,
            refusal: message,
          }),
          (more) => {
            usage = addUsage(usage, more);
          },
        );
        if (compacted.ok) continue;
      }
      return yield* finish(terminal(tooLong ? "prompt_too_long" : "model_error", message));
    }

    reactiveCompactionTried = false;
    const assistant = assistantOf(outcome.turn, answeredBy?.model ?? model);
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
    // Once per response, every result in: what the hooks say reaches the model's next request.
    if (!signal.aborted) await runPostToolBatchHooks(toolUses, results, context);
    const listEvent = taskListChange();
    if (listEvent) yield listEvent;
    for (const message of context.channels.brief.drain()) yield { type: "brief", message };

    if (signal.aborted) {
      if (!wasInterruptedByNewMessage(signal)) yield add(userText(INTERRUPTED_DURING_TOOLS));
      return yield* finish(terminal("aborted_tools"));
    }
    // A hook's `continue: false`: the calls have their results; no further request is sent.
    const hookStopReason = context.channels.hookStop.takeIf(() => true);
    if (hookStopReason !== undefined) return yield* finish({ ...terminal("hook_stopped"), hookStopReason });
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

/** Passes a context step's events through, adding what its compaction cost to the query's usage. */
async function* withCompactionUsage<T>(
  step: AsyncGenerator<QueryEvent, T>,
  onUsage: (usage: Usage) => void,
): AsyncGenerator<QueryEvent, T> {
  while (true) {
    const next = await step.next();
    if (next.done) return next.value;
    if (next.value.type === "compact_boundary") onUsage(next.value.usage);
    yield next.value;
  }
}

/** Yields the terminal event and returns it, so callers can use either. */
async function* finish(event: TerminalEvent): AsyncGenerator<QueryEvent, TerminalEvent> {
  yield event;
  return event;
}
