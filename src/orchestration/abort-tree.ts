/**
 * Why a tool call was stopped. The reason travels down the abort tree (query → siblings → each
 * tool) as the AbortSignal's reason, and decides both whether a running tool stops and what the
 * model is told about it.
 * - interrupt: the user sent a new message; only tools whose interruptBehavior is 'cancel' stop.
 * - sibling_error: a Bash call in the same turn failed; its siblings stop (their work likely
 *   depended on it).
 * - discarded: the loop threw the turn away (e.g. the stream is being retried); nobody reads the
 *   results.
 * Any other reason (ESC, a plain abort()) is a user cancel and stops everything.
 */
export type ToolAbortReason = "interrupt" | "sibling_error" | "discarded" | "user_cancel";

export function toolAbortReasonOf(signal: AbortSignal): ToolAbortReason {
  const reason: unknown = signal.reason;
  if (reason === "interrupt" || reason === "sibling_error" || reason === "discarded") return reason;
  return "user_cancel";
}

export interface ChildAbortController {
  controller: AbortController;
  /** Stops following the parent; call when the child's work is over so listeners do not pile up. */
  detach(): void;
}

/**
 * A controller that aborts, with the parent's reason, when the parent does, unless `follows`
 * says this child should ignore that reason (a 'block' tool ignores 'interrupt').
 */
export function createChildAbortController(
  parent: AbortSignal,
  follows: (reason: ToolAbortReason) => boolean = () => true,
): ChildAbortController {
  const controller = new AbortController();
  if (parent.aborted) {
    if (follows(toolAbortReasonOf(parent))) controller.abort(parent.reason);
    return { controller, detach: () => {} };
  }
  const onParentAbort = () => {
    if (follows(toolAbortReasonOf(parent))) controller.abort(parent.reason);
  };
  parent.addEventListener("abort", onParentAbort, { once: true });
  return { controller, detach: () => parent.removeEventListener("abort", onParentAbort) };
}
