// THE SEAM between the agent loop and tool execution. query() runs every tool call of a turn
// through executeToolCalls() and nothing else, so the concurrent streaming executor
// (src/orchestration/) can replace this serial version by changing this one file.
//
// Contract the loop relies on (any replacement must keep it):
// - Exactly one `result` event per tool_use in `toolUses`, yielded in the order of `toolUses`,
//   whatever happens: unknown tool, bad input, refusal, throw, abort (synthetic error results).
// - `progress` events may come at any time, outside that order.
// - Context modifiers of the calls are applied in call order; the generator's return value is the
//   context the loop uses from then on.
// - When `context.abortController` aborts, the call in flight stops being waited for at once and
//   the remaining calls get an interrupted result without running.
import type { AssistantMessage, ToolUseBlock } from "../messages/types.js";
import { INTERRUPTED_MESSAGE, type ToolRunOutcome, errorResult, runToolUse } from "../orchestration/run-tool-use.js";
import type { CanUseTool, ToolUseContext } from "../tool/types.js";

export type ToolExecutionEvent =
  | { type: "progress"; toolUse: ToolUseBlock; progress: unknown }
  | { type: "result"; toolUse: ToolUseBlock; outcome: ToolRunOutcome };

export type ExecuteToolCalls = (
  toolUses: readonly ToolUseBlock[],
  context: ToolUseContext,
  canUseTool: CanUseTool,
  assistantMessage: AssistantMessage,
) => AsyncGenerator<ToolExecutionEvent, ToolUseContext>;

/** Resolves when the signal aborts; never rejects. */
function abortPromise(signal: AbortSignal): { promise: Promise<"aborted">; dispose(): void } {
  let onAbort: () => void = () => {};
  const promise = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    if (signal.aborted) resolve("aborted");
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

function interrupted(toolUse: ToolUseBlock): ToolRunOutcome {
  return { result: errorResult(toolUse.id, INTERRUPTED_MESSAGE) };
}

/**
 * Serial execution: one call at a time, in order. Progress of the running call is buffered and
 * flushed between awaits, because a generator cannot yield from inside a callback.
 */
export async function* executeToolCalls(
  toolUses: readonly ToolUseBlock[],
  context: ToolUseContext,
  canUseTool: CanUseTool,
  assistantMessage: AssistantMessage,
): AsyncGenerator<ToolExecutionEvent, ToolUseContext> {
  let current = context;
  for (const toolUse of toolUses) {
    const signal = current.abortController.signal;
    if (signal.aborted) {
      yield { type: "result", toolUse, outcome: interrupted(toolUse) };
      continue;
    }
    const progressQueue: unknown[] = [];
    let wake: (() => void) | undefined;
    const onProgress = (progress: unknown) => {
      progressQueue.push(progress);
      wake?.();
    };
    let outcome: ToolRunOutcome | undefined;
    const settle = (o: ToolRunOutcome) => {
      outcome = o;
      wake?.();
    };
    // runToolUse turns every failure into a result; the catch is a last guard so a bug there
    // still leaves the tool_use paired.
    const run = runToolUse(toolUse, current, canUseTool, assistantMessage, onProgress).then(settle, (error: unknown) =>
      settle({ result: errorResult(toolUse.id, `Error: ${error instanceof Error ? error.message : String(error)}`) }),
    );
    const abort = abortPromise(signal);
    try {
      while (outcome === undefined && !signal.aborted) {
        if (progressQueue.length === 0) {
          await Promise.race([
            run,
            abort.promise,
            new Promise<void>((resolve) => {
              wake = resolve;
            }),
          ]);
          wake = undefined;
        }
        for (const progress of progressQueue.splice(0)) yield { type: "progress", toolUse, progress };
      }
    } finally {
      abort.dispose();
    }
    // A tool that ignores the abort signal is no longer waited for: its late result is dropped.
    const final = outcome ?? interrupted(toolUse);
    yield { type: "result", toolUse, outcome: final };
    if (final.contextModifier) current = final.contextModifier(current);
  }
  return current;
}
