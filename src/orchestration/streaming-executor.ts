import { setMaxListeners } from "node:events";
import type { AssistantMessage, ToolUseBlock } from "../messages/types.js";
import { applyToolResultLimit } from "../results/limit-result.js";
import type { AnyTool, CanUseTool, InterruptBehavior, ToolUseContext } from "../tool/types.js";
import { sessionWorkingDirectory } from "../tool/working-directory.js";
import {
  type ChildAbortController,
  createChildAbortController,
  type ToolAbortReason,
  toolAbortReasonOf,
} from "./abort-tree.js";
import { maxToolUseConcurrency } from "./concurrency-limit.js";
import { isCallConcurrencySafe } from "./partition.js";
import { type ResolvedToolCall, resolveToolCall } from "./resolve-call.js";
import { runResolvedToolCall, type ToolRunOutcome } from "./run-tool-use.js";
import { describeCall, type PartialOutput, partialOutputOf, syntheticResult } from "./synthetic-results.js";

/** What the executor hands the loop: progress as it happens, results in call order. */
export type ToolExecutionUpdate =
  | { type: "progress"; toolUseId: string; progress: unknown }
  | { type: "result"; toolUseId: string; outcome: ToolRunOutcome; syntheticReason?: ToolAbortReason };

export interface StreamingToolExecutorOptions {
  /** The query's context; its abortController is the root of the abort tree. */
  context: ToolUseContext;
  canUseTool: CanUseTool;
  /** Defaults to WARDEN_MAX_TOOL_USE_CONCURRENCY (10). */
  maxConcurrency?: number;
}

type CallStatus = "queued" | "executing" | "completed" | "yielded";

interface TrackedCall {
  /** Position in the response: results and contextModifiers follow it. */
  order: number;
  /** The tool_use with its tool found and its input parsed, once, when it was added. */
  resolved: ResolvedToolCall;
  assistantMessage: AssistantMessage | undefined;
  /**
   * False while the tool still loads what judging this input needs (Tool.whenReady): the call
   * then waits, and so do the calls after it, since calls never overtake one another.
   */
  judged: boolean;
  isConcurrencySafe: boolean;
  interruptBehavior: InterruptBehavior;
  status: CallStatus;
  abort?: ChildAbortController;
  outcome?: ToolRunOutcome;
  syntheticReason?: ToolAbortReason;
  /** The output a running call last reported (a long Bash command's last lines), kept for its interrupted result. */
  outputSoFar?: PartialOutput;
  /**
   * The tool itself was called (its checks, hooks and permission passed). A call stopped before
   * then, such as one the person refused with Esc in its permission dialog, was not run.
   */
  toolCalled?: boolean;
}

/**
 * Runs the tool calls of one model response, starting each as soon as its tool_use block is
 * complete (the model may still be writing the rest). A concurrency-safe call starts when every
 * running call is safe too (up to the concurrency limit); any other call waits until nothing runs
 * and runs alone. Calls never overtake one another, so this yields the same batches as
 * partitionToolCalls, only earlier.
 *
 * The abort tree is query (context.abortController) → siblings (this executor) → one controller
 * per call. Every call added gets exactly one result: its own, or a synthetic error when it was
 * cancelled or never started.
 */
export class StreamingToolExecutor {
  private readonly calls: TrackedCall[] = [];
  private readonly progressQueue: ToolExecutionUpdate[] = [];
  private readonly siblings: ChildAbortController;
  /** The query's own controller (context.abortController at the start): a refusal with "stop" aborts it. */
  private readonly queryController: AbortController;
  private readonly maxConcurrency: number;
  private readonly canUseTool: CanUseTool;
  private context: ToolUseContext;
  /** contextModifiers of concurrent calls, applied in call order once their batch is over. */
  private pendingModifiers: Array<{ order: number; modify: (context: ToolUseContext) => ToolUseContext }> = [];
  private erroredSibling: string | undefined;
  private discarded = false;
  private wakeWaiter: (() => void) | undefined;
  private changedSinceLastLook = false;
  private publishedInterruptible = false;

  constructor(options: StreamingToolExecutorOptions) {
    this.context = options.context;
    this.canUseTool = options.canUseTool;
    this.maxConcurrency = options.maxConcurrency ?? maxToolUseConcurrency();
    this.queryController = options.context.abortController;
    this.siblings = createChildAbortController(options.context.abortController.signal);
    // One listener per running call plus ours: up to the limit is expected, not a leak.
    setMaxListeners(this.maxConcurrency + 10, this.siblings.controller.signal);
    // Queued calls must get their synthetic results even when nothing is running to notice.
    this.siblings.controller.signal.addEventListener("abort", () => this.advance(), { once: true });
  }

  /**
   * Hands over one complete tool_use; it starts at once if the concurrency rule allows. A tool
   * still loading what its judgement needs is waited for first (without holding up the caller).
   */
  addTool(block: ToolUseBlock, assistantMessage?: AssistantMessage): void {
    const resolved = resolveToolCall(block, this.context.options.tools);
    const call: TrackedCall = {
      order: this.calls.length,
      resolved,
      assistantMessage,
      judged: false,
      isConcurrencySafe: false,
      interruptBehavior: interruptBehaviorOf(resolved.tool),
      status: "queued",
    };
    this.calls.push(call);
    const pending = resolved.problem === undefined ? pendingJudgement(resolved.tool) : undefined;
    if (pending) pending.then(() => this.judge(call));
    else this.judge(call);
  }

  /** Decides the call's concurrency from its parsed input, now that the tool can judge it exactly. */
  private judge(call: TrackedCall): void {
    call.isConcurrencySafe = isCallConcurrencySafe(call.resolved, sessionWorkingDirectory(this.context));
    call.judged = true;
    this.advance();
    this.wake();
  }

  /**
   * True while calls run and every one of them is 'cancel': then a new user message may abort
   * the turn (abort reason 'interrupt'); otherwise the message must wait in the queue.
   */
  get hasInterruptibleToolInProgress(): boolean {
    const running = this.calls.filter((c) => c.status === "executing");
    return running.length > 0 && running.every((c) => c.interruptBehavior === "cancel");
  }

  /** Aborts the calls of this turn only (not the query) with the given reason. */
  abort(reason: ToolAbortReason): void {
    this.siblings.controller.abort(reason);
  }

  /** Abandons the turn: running calls stop and nothing more is yielded (no result will be read). */
  discard(): void {
    this.discarded = true;
    this.abort("discarded");
    this.siblings.detach();
  }

  /** The context after every applied contextModifier; read it once all results are out. */
  getUpdatedContext(): ToolUseContext {
    this.flushPendingModifiers();
    return this.context;
  }

  /** Progress reported so far, taken out now; results stay for getCompletedResults. */
  *takeProgress(): Generator<ToolExecutionUpdate> {
    if (this.discarded) return;
    while (this.progressQueue.length > 0) yield this.progressQueue.shift()!;
  }

  /** True when getCompletedResults has something now: progress, or the next result in call order. */
  hasCompletedResults(): boolean {
    if (this.discarded) return false;
    if (this.progressQueue.length > 0) return true;
    for (const call of this.calls) {
      if (call.status !== "yielded") return call.status === "completed";
    }
    return false;
  }

  /** Everything ready now, without waiting: all progress, then results up to the first unfinished call. */
  *getCompletedResults(): Generator<ToolExecutionUpdate> {
    yield* this.takeProgress();
    yield* this.takeFinishedResults();
  }

  /** Results ready now, in call order, up to the first unfinished call (progress stays queued). */
  *takeFinishedResults(): Generator<ToolExecutionUpdate> {
    if (this.discarded) return;
    for (const call of this.calls) {
      if (call.status === "yielded") continue;
      // Head-of-line: a later call that finished first waits until the earlier ones are out.
      if (call.status !== "completed") break;
      call.status = "yielded";
      yield {
        type: "result",
        toolUseId: call.resolved.block.id,
        outcome: call.outcome!,
        syntheticReason: call.syntheticReason,
      };
    }
  }

  /** Waits for and yields everything still owed, until every call added so far has its result. */
  async *getRemainingResults(): AsyncGenerator<ToolExecutionUpdate> {
    for (;;) {
      // Anything that happens from here on (even while our consumer holds a yielded update)
      // sets the flag, so the wait below cannot miss it.
      this.changedSinceLastLook = false;
      this.advance();
      yield* this.getCompletedResults();
      if (this.discarded || this.calls.every((c) => c.status === "yielded")) break;
      await this.nextChange();
    }
    this.flushPendingModifiers();
    // Every call is settled: stop listening to the query, or a long query would collect one
    // listener per turn.
    if (this.calls.every((c) => c.status === "yielded")) this.siblings.detach();
  }

  /**
   * Mirrors hasInterruptibleToolInProgress into AppState, where the session reads it when the
   * user sends a message (it has no handle on this executor). Written only when it changes.
   */
  private publishInterruptible(): void {
    // A subagent's calls run inside the parent's Agent call, whose own behaviour already counts;
    // letting the child write the session-wide flag would overwrite the parent's answer.
    if (this.context.agentId !== undefined) return;
    const value = this.hasInterruptibleToolInProgress;
    if (value === this.publishedInterruptible) return;
    this.publishedInterruptible = value;
    this.context.setAppState((prev) => ({ ...prev, hasInterruptibleToolInProgress: value }));
  }

  /** Starts what may start, in call order, and settles queued calls that must never start. */
  private advance(): void {
    const stopped = this.siblings.controller.signal;
    for (const call of this.calls) {
      if (call.status !== "queued") continue;
      if (stopped.aborted) {
        this.completeSynthetically(call, toolAbortReasonOf(stopped), false);
        continue;
      }
      if (!call.judged || !this.mayStart(call)) break;
      this.start(call);
    }
    this.publishInterruptible();
  }

  private mayStart(call: TrackedCall): boolean {
    const running = this.calls.filter((c) => c.status === "executing");
    if (running.length === 0) return true;
    return call.isConcurrencySafe && running.length < this.maxConcurrency && running.every((c) => c.isConcurrencySafe);
  }

  private start(call: TrackedCall): void {
    // A batch of concurrent calls is over when an exclusive call starts: its modifiers come first.
    if (!call.isConcurrencySafe) this.flushPendingModifiers();
    call.status = "executing";
    const abort = createChildAbortController(
      this.siblings.controller.signal,
      (reason) => !(reason === "interrupt" && call.interruptBehavior === "block"),
    );
    call.abort = abort;
    const signal = abort.controller.signal;
    signal.addEventListener("abort", () => this.completeSynthetically(call, toolAbortReasonOf(signal), true), {
      once: true,
    });
    const callContext: ToolUseContext = { ...this.context, abortController: abort.controller };
    const onProgress = (progress: unknown) => {
      if (call.status !== "executing") return;
      const output = partialOutputOf(progress);
      if (output) call.outputSoFar = output;
      this.progressQueue.push({ type: "progress", toolUseId: call.resolved.block.id, progress });
      this.wake();
    };
    const onToolCalled = () => {
      call.toolCalled = true;
    };
    runResolvedToolCall(call.resolved, callContext, this.canUseTool, call.assistantMessage, onProgress, onToolCalled)
      .then(async (outcome) => ({
        ...outcome,
        result: await applyToolResultLimit(outcome.result, outcome.tool, this.context.options.sessionDir),
      }))
      .then(
        (outcome) => this.finish(call, outcome),
        // runToolUse turns every failure into a result; this only guards against a bug there.
        (error: unknown) =>
          this.finish(call, { tool: call.resolved.tool, result: syntheticFailure(call.resolved.block, error) }),
      );
  }

  private finish(call: TrackedCall, outcome: ToolRunOutcome): void {
    // A call already settled by an abort keeps its synthetic result; its late output is dropped.
    if (call.status !== "executing") return;
    call.abort?.detach();
    call.outcome = outcome;
    call.status = "completed";
    if (outcome.interruptsTurn === true) {
      // Refused with "stop": this call keeps its refusal; the query stops as at Esc, so the calls
      // still running or queued get their interrupted results and the turn ends.
      this.queryController.abort("user");
    } else if (outcome.result.is_error && call.resolved.tool?.cancelsSiblingsOnError === true) {
      this.erroredSibling = describeCall(call.resolved.block);
      this.abort("sibling_error");
    }
    if (outcome.contextModifier) {
      if (call.isConcurrencySafe) {
        this.pendingModifiers.push({ order: call.order, modify: outcome.contextModifier });
      } else {
        this.context = outcome.contextModifier(this.context);
      }
    }
    this.advance();
    this.wake();
  }

  private completeSynthetically(call: TrackedCall, reason: ToolAbortReason, started: boolean): void {
    if (call.status === "completed" || call.status === "yielded") return;
    call.abort?.detach();
    call.status = "completed";
    call.syntheticReason = reason;
    call.outcome = {
      tool: call.resolved.tool,
      result: syntheticResult(
        call.resolved.block,
        reason,
        started && call.toolCalled === true,
        this.erroredSibling,
        call.outputSoFar,
      ),
    };
    // A call that was running frees its slot; queued calls are then settled (the tree is aborted).
    if (started) this.advance();
    this.wake();
  }

  private flushPendingModifiers(): void {
    if (this.pendingModifiers.length === 0) return;
    const inCallOrder = this.pendingModifiers.sort((a, b) => a.order - b.order);
    this.pendingModifiers = [];
    for (const { modify } of inCallOrder) this.context = modify(this.context);
  }

  private nextChange(): Promise<void> {
    if (this.changedSinceLastLook) return Promise.resolve();
    return new Promise((resolve) => {
      this.wakeWaiter = resolve;
    });
  }

  private wake(): void {
    this.changedSinceLastLook = true;
    const waiter = this.wakeWaiter;
    this.wakeWaiter = undefined;
    waiter?.();
  }
}

/** The tool's whenReady, as a promise that never rejects; undefined when it is ready now. */
function pendingJudgement(tool: AnyTool): Promise<void> | undefined {
  let pending: Promise<void> | undefined;
  try {
    pending = tool.whenReady?.();
  } catch {
    return undefined;
  }
  // A failed load leaves the tool's fail-closed placeholder: the call is judged (unsafe) and runs.
  return pending?.catch(() => undefined);
}

function interruptBehaviorOf(tool: AnyTool | undefined): InterruptBehavior {
  if (!tool) return "cancel";
  try {
    return tool.interruptBehavior() === "cancel" ? "cancel" : "block";
  } catch {
    return "block";
  }
}

function syntheticFailure(block: ToolUseBlock, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return { type: "tool_result" as const, tool_use_id: block.id, content: `Error: ${message}`, is_error: true };
}
