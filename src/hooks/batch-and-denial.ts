// How PostToolBatch and PermissionDenied hooks' outcomes fold into one answer each.
import type { PostToolBatchResult } from "../tool/tool-call-hooks.js";
import { continuationStop } from "./hook-folds.js";
import type { HookOutcome } from "./hook-output.js";

/**
 * PostToolBatch: exit code 2 or `decision: "block"` is feedback the model reads on its next
 * request (the calls already ran; nothing can undo them), additionalContext likewise.
 */
export function foldPostToolBatch(outcomes: readonly HookOutcome[]): PostToolBatchResult {
  const result: PostToolBatchResult = { feedback: [], additionalContext: [], errors: [] };
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") result.errors.push(outcome.message);
    else if (outcome.kind === "blocking") result.feedback.push(outcome.message);
    else if (outcome.json) {
      if (outcome.json.decision === "block")
        result.feedback.push(outcome.json.reason ?? "a PostToolBatch hook objected");
      const context = outcome.json.hookSpecificOutput?.additionalContext;
      if (context) result.additionalContext.push(context);
    }
  }
  const stop = continuationStop(outcomes, "PostToolBatch");
  if (stop !== undefined) result.stop = stop;
  return result;
}

/** PermissionDenied: any hook answering `retry: true` lets the model try again; the denial stands. */
export function foldPermissionDenied(outcomes: readonly HookOutcome[]): { retry: boolean; errors: string[] } {
  let retry = false;
  const errors: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") errors.push(outcome.message);
    else if (outcome.kind === "success" && outcome.json?.hookSpecificOutput?.retry === true) retry = true;
  }
  return { retry, errors };
}
