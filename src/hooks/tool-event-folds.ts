// How the outcomes of one call's PreToolUse and PostToolUse hooks fold into one answer each.
import type { PostToolUseResult, PreToolUseResult } from "../tool/tool-call-hooks.js";
import type { ToolInput } from "../tool/types.js";
import { continuationStop } from "./hook-folds.js";
import type { HookOutcome } from "./hook-output.js";

/**
 * PreToolUse: the strictest answer wins. A hook that failed, blocked, stopped the run or denied
 * refuses the call (a guard that could not look has not said yes); ask beats allow.
 */
export function foldPreToolUse(outcomes: readonly HookOutcome[]): PreToolUseResult {
  // The hooks named with the answer are those that gave it: a guard that said nothing (exit 0) was
  // named beside the one that asked, as if it had asked too.
  const refusedBy: string[] = [];
  let decidedBy: string[] = [];
  const refusals: string[] = [];
  let behavior: "allow" | "ask" | "none" = "none";
  let reason: string | undefined;
  let updatedInput: ToolInput | undefined;
  const additionalContext: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") {
      refusals.push(`${outcome.message}; the call is refused because its PreToolUse hook could not check it`);
      refusedBy.push(outcome.hook);
      continue;
    }
    if (outcome.kind === "blocking") {
      refusals.push(`PreToolUse hook refused: ${outcome.message}`);
      refusedBy.push(outcome.hook);
      continue;
    }
    const json = outcome.json;
    if (!json) continue;
    const specific = json.hookSpecificOutput;
    const decision =
      specific?.permissionDecision ??
      (json.decision === "block" ? "deny" : json.decision === "approve" ? "allow" : undefined);
    const why = specific?.permissionDecisionReason ?? json.reason;
    if (json.continue === false) {
      refusals.push(`PreToolUse hook stopped the run: ${json.stopReason ?? why ?? "no reason given"}`);
      refusedBy.push(outcome.hook);
      continue;
    }
    if (decision === "deny") {
      refusals.push(`PreToolUse hook denied: ${why ?? "no reason given"}`);
      refusedBy.push(outcome.hook);
      continue;
    }
    // Warden cannot pause a call for a later answer: a deferred call is refused, never run unchecked.
    if (decision === "defer") {
      refusals.push(`PreToolUse hook deferred the call, which Warden cannot wait for: ${why ?? "no reason given"}`);
      refusedBy.push(outcome.hook);
      continue;
    }
    // ask beats allow: one hook wanting a human is enough.
    if (decision === "ask" && behavior !== "ask") {
      behavior = "ask";
      reason = why;
      decidedBy = [outcome.hook];
    } else if (decision === "allow" && behavior === "none") {
      behavior = "allow";
      reason = why;
      decidedBy = [outcome.hook];
    }
    if (specific?.updatedInput) updatedInput = specific.updatedInput;
    if (specific?.additionalContext) additionalContext.push(specific.additionalContext);
  }
  const stop = continuationStop(outcomes, "PreToolUse");
  if (refusals.length > 0) {
    return {
      behavior: "deny",
      message: refusals.join("\n"),
      hooks: refusedBy,
      ...(stop === undefined ? {} : { stop }),
    };
  }
  return { behavior, reason, updatedInput, additionalContext, hooks: decidedBy };
}

/** PostToolUse: exit 2 or `decision: "block"` is feedback on a call that already ran; context for the model. */
export function foldPostToolUse(outcomes: readonly HookOutcome[]): PostToolUseResult {
  const result: PostToolUseResult = { feedback: [], additionalContext: [], errors: [] };
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") result.errors.push(outcome.message);
    else if (outcome.kind === "blocking") result.feedback.push(outcome.message);
    else if (outcome.json) {
      if (outcome.json.decision === "block") result.feedback.push(outcome.json.reason ?? "a PostToolUse hook objected");
      const context = outcome.json.hookSpecificOutput?.additionalContext;
      if (context) result.additionalContext.push(context);
    }
  }
  const stop = continuationStop(outcomes, "PostToolUse");
  if (stop !== undefined) result.stop = stop;
  return result;
}
