// THE SEAM between the agent loop and tool execution. query() runs every tool call of a turn
// through this file and nothing else; the scheduling itself (concurrency, abort tree, ordering,
// result limits) lives in src/orchestration/streaming-executor.ts.
//
// Contract the loop relies on (any replacement must keep it):
// - Exactly one `result` event per tool_use in `toolUses`, yielded in the order of `toolUses`,
//   whatever happens: unknown tool, bad input, refusal, throw, abort (synthetic error results).
// - `progress` events may come at any time, outside that order.
// - Context modifiers of the calls are applied in call order (a concurrent batch's after the
//   batch); the generator's return value is the context the loop uses from then on.
// - When `context.abortController` aborts, running calls stop being waited for at once and the
//   remaining calls get an interrupted result without running.
import type { AssistantContentBlock, AssistantMessage, ToolUseBlock } from "../messages/types.js";
import type { ToolAbortReason } from "../orchestration/abort-tree.js";
import type { ToolRunOutcome } from "../orchestration/run-tool-use.js";
import { StreamingToolExecutor } from "../orchestration/streaming-executor.js";
import type { CanUseTool, ToolUseContext } from "../tool/types.js";

export type ToolExecutionEvent =
  | { type: "progress"; toolUse: ToolUseBlock; progress: unknown }
  /** `alreadyShown`: handed out by finishedResults() while the model streamed; count it, do not show it again. */
  | { type: "result"; toolUse: ToolUseBlock; outcome: ToolRunOutcome; alreadyShown?: boolean };

/**
 * The tool calls of one model response, started while the response is still streaming: the loop
 * hands over each complete block as it arrives, shows progress and finished results between
 * stream events, and collects every result through results() once the stream ends.
 */
export class StreamingToolTurn {
  // Made on the first call: a turn without tools must not leave a listener on the query's signal.
  private current: StreamingToolExecutor | undefined;
  private readonly added = new Set<ToolUseBlock>();
  private readonly addedById = new Map<string, ToolUseBlock>();
  /** Results handed out while the model was still streaming, in call order. */
  private readonly shownEarly: Array<{ toolUse: ToolUseBlock; outcome: ToolRunOutcome }> = [];

  constructor(
    private readonly context: ToolUseContext,
    private readonly canUseTool: CanUseTool,
  ) {}

  private get executor(): StreamingToolExecutor {
    this.current ??= new StreamingToolExecutor({ context: this.context, canUseTool: this.canUseTool });
    return this.current;
  }

  /** A complete content block from the stream; tool_use blocks start at once if allowed. */
  onBlock(block: AssistantContentBlock, blocksSoFar: readonly AssistantContentBlock[], model: string): void {
    if (block.type !== "tool_use") return;
    this.added.add(block);
    this.addedById.set(block.id, block);
    this.executor.addTool(block, { role: "assistant", content: [...blocksSoFar], model });
  }

  /** The provider restarted its stream: what was started belongs to a response that no longer exists. */
  onReset(): void {
    this.current?.discard();
    this.current = undefined;
    this.added.clear();
    this.addedById.clear();
    this.shownEarly.length = 0;
  }

  /** Progress of calls started mid-stream, taken out now so it is shown while the model still writes. */
  *progressEvents(): Generator<{ toolUse: ToolUseBlock; progress: unknown }> {
    if (!this.current) return;
    for (const update of this.current.takeProgress()) {
      const toolUse = this.addedById.get(update.toolUseId);
      if (toolUse && update.type === "progress") yield { toolUse, progress: update.progress };
    }
  }

  /**
   * Results of calls that finished while the model streams, in call order (a finished call waits
   * behind an unfinished earlier one), so they are shown at once; results() still counts them.
   */
  *finishedResults(): Generator<{ toolUse: ToolUseBlock; outcome: ToolRunOutcome }> {
    if (!this.current) return;
    for (const update of this.current.takeFinishedResults()) {
      const toolUse = this.addedById.get(update.toolUseId);
      if (!toolUse || update.type !== "result") continue;
      this.shownEarly.push({ toolUse, outcome: update.outcome });
      yield { toolUse, outcome: update.outcome };
    }
  }

  /** Stops this turn's calls (not the query): e.g. the model request failed mid-stream. */
  abort(reason: ToolAbortReason): void {
    this.current?.abort(reason);
  }

  /** One result per tool_use, in order (starting any that were not handed over while streaming). */
  async *results(
    toolUses: readonly ToolUseBlock[],
    assistantMessage: AssistantMessage,
  ): AsyncGenerator<ToolExecutionEvent, ToolUseContext> {
    for (const toolUse of toolUses) {
      if (!this.added.has(toolUse)) {
        this.added.add(toolUse);
        this.executor.addTool(toolUse, assistantMessage);
      }
    }
    if (toolUses.length === 0) return this.context;
    for (const early of this.shownEarly) yield { type: "result", ...early, alreadyShown: true };
    const byId = new Map(toolUses.map((t) => [t.id, t]));
    for await (const update of this.executor.getRemainingResults()) {
      const toolUse = byId.get(update.toolUseId);
      if (!toolUse) continue;
      yield update.type === "progress"
        ? { type: "progress", toolUse, progress: update.progress }
        : { type: "result", toolUse, outcome: update.outcome };
    }
    return this.executor.getUpdatedContext();
  }
}
