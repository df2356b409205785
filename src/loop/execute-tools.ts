// THE SEAM between the agent loop and tool execution. query() runs every tool call of a turn
// through this file and nothing else; the scheduling itself (concurrency, abort tree, ordering,
// result limits) lives in src/orchestration/streaming-executor.ts.
//
// Contract the loop relies on (any replacement must keep it):
// - Exactly one `tool_result` event per tool_use, keyed by its tool_use id and emitted once: while
//   the model still streams (readyEvents) or after it (remainingEvents), in call order either way.
//   Every call gets one whatever happens: unknown tool, bad input, refusal, throw, abort
//   (synthetic error results). resultsFor() hands the recorded results back for the user message.
// - `tool_progress` events may come at any time, outside that order.
// - Context modifiers of the calls are applied in call order (a concurrent batch's after the
//   batch); remainingEvents returns the context the loop uses from then on.
// - When `context.abortController` aborts, running calls stop being waited for at once and the
//   remaining calls get an interrupted result without running.
import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  ToolResultBlock,
  ToolUseBlock,
} from "../messages/types.js";
import type { ToolAbortReason } from "../orchestration/abort-tree.js";
import type { ToolRunOutcome } from "../orchestration/run-tool-use.js";
import { StreamingToolExecutor, type ToolExecutionUpdate } from "../orchestration/streaming-executor.js";
import type { CanUseTool, ToolUseContext } from "../tool/types.js";
import type { QueryEvent } from "./events.js";

type ToolEvent = Extract<QueryEvent, { type: "tool_progress" | "tool_result" }>;

const NO_EVENTS: readonly ToolEvent[] = [];

/**
 * The tool calls of one model response, started while the response is still streaming: the loop
 * hands over each complete block as it arrives, emits progress and finished results between
 * stream events, and the rest once the stream ends. Each result is emitted once and recorded by
 * its tool_use id.
 */
export class StreamingToolTurn {
  // Made on the first call: a turn without tools must not leave a listener on the query's signal.
  private current: StreamingToolExecutor | undefined;
  /** The tool_use blocks handed to the executor, by id. */
  private readonly added = new Map<string, ToolUseBlock>();
  /** Each call's outcome, recorded when its result event is emitted. */
  private readonly outcomes = new Map<string, ToolRunOutcome>();

  constructor(
    private readonly context: ToolUseContext,
    private readonly canUseTool: CanUseTool,
  ) {}

  private get executor(): StreamingToolExecutor {
    this.current ??= new StreamingToolExecutor({ context: this.context, canUseTool: this.canUseTool });
    return this.current;
  }

  private add(block: ToolUseBlock, assistantMessage: AssistantMessage): void {
    this.added.set(block.id, block);
    this.executor.addTool(block, assistantMessage);
  }

  /** A complete content block from the stream; tool_use blocks start at once if allowed. */
  onBlock(block: AssistantContentBlock, blocksSoFar: readonly AssistantContentBlock[], model: string): void {
    if (block.type !== "tool_use") return;
    this.add(block, { role: "assistant", content: [...blocksSoFar], model });
  }

  /** The provider restarted its stream: what was started belongs to a response that no longer exists. */
  onReset(): void {
    this.current?.discard();
    this.current = undefined;
    this.added.clear();
    this.outcomes.clear();
  }

  /**
   * What is ready now, without waiting, so it is shown while the model still writes: progress of
   * running calls, then results of finished calls in call order (a finished call waits behind an
   * unfinished earlier one).
   */
  readyEvents(): readonly ToolEvent[] {
    // Asked after every stream event and nearly always with nothing ready: answered then without
    // making anything (the executor's generators, or an array), as the stream runs cold.
    const current = this.current;
    if (!current?.hasCompletedResults()) return NO_EVENTS;
    const events: ToolEvent[] = [];
    for (const update of current.getCompletedResults()) {
      const event = this.eventOf(update);
      if (event) events.push(event);
    }
    return events;
  }

  /** Stops this turn's calls (not the query): e.g. the model request failed mid-stream. */
  abort(reason: ToolAbortReason): void {
    this.current?.abort(reason);
  }

  /**
   * Every event still owed until each of `toolUses` has its result (starting any that were not
   * handed over while streaming); returns the context after the calls' modifiers.
   */
  async *remainingEvents(
    toolUses: readonly ToolUseBlock[],
    assistantMessage: AssistantMessage,
  ): AsyncGenerator<ToolEvent, ToolUseContext> {
    for (const toolUse of toolUses) if (!this.added.has(toolUse.id)) this.add(toolUse, assistantMessage);
    if (toolUses.length === 0) return this.context;
    for await (const update of this.executor.getRemainingResults()) {
      const event = this.eventOf(update);
      if (event) yield event;
    }
    return this.executor.getUpdatedContext();
  }

  /** The results recorded so far for `toolUses`, in their order, and the messages their tools added. */
  resultsFor(toolUses: readonly ToolUseBlock[]): { results: ToolResultBlock[]; newMessages: Message[] } {
    const results: ToolResultBlock[] = [];
    const newMessages: Message[] = [];
    for (const toolUse of toolUses) {
      const outcome = this.outcomes.get(toolUse.id);
      if (!outcome) continue;
      results.push(outcome.result);
      if (outcome.newMessages) newMessages.push(...outcome.newMessages);
    }
    return { results, newMessages };
  }

  /** The loop event for an executor update; a result is recorded by its tool_use id as it goes out. */
  private eventOf(update: ToolExecutionUpdate): ToolEvent | undefined {
    const toolUse = this.added.get(update.toolUseId);
    if (!toolUse) return undefined;
    if (update.type === "progress") {
      return { type: "tool_progress", toolUseId: toolUse.id, toolName: toolUse.name, progress: update.progress };
    }
    const { outcome } = update;
    this.outcomes.set(toolUse.id, outcome);
    return outcome.denial
      ? { type: "tool_result", toolUse, result: outcome.result, denial: outcome.denial }
      : { type: "tool_result", toolUse, result: outcome.result };
  }
}
