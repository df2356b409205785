// The events of one turn: the prompt (UserPromptSubmit, UserPromptExpansion), its end (Stop,
// StopFailure), compaction (PreCompact, PostCompact) and the user being needed (Notification).
import type { CompactTrigger, PreCompactResult } from "../tool/compact-hooks.js";
import type { PromptExpansion, PromptExpansionResult } from "../tool/tool-call-hooks.js";
import type { HookDispatcher } from "./hook-dispatch.js";
import { foldContextOutcomes, foldStopOutcomes } from "./hook-folds.js";
import type { HookOutcome } from "./hook-output.js";
import type { StopResult, UserPromptSubmitResult } from "./hook-types.js";
import { type StopFailureKind, stopFailureKind } from "./stop-failure.js";

export type NotificationType = "permission_prompt" | "idle_prompt";

/** The failures among the outcomes, for events whose answer changes nothing. */
export function failuresOf(outcomes: readonly HookOutcome[]): { errors: string[] } {
  return { errors: outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : [])) };
}

export async function userPromptSubmit(
  hooks: HookDispatcher,
  prompt: string,
  signal?: AbortSignal,
): Promise<UserPromptSubmitResult> {
  const outcomes = await hooks.run("UserPromptSubmit", undefined, { prompt }, signal);
  const { context, errors, blocked } = foldContextOutcomes(outcomes, "blocked by a UserPromptSubmit hook");
  return { additionalContext: context, errors, ...(blocked !== undefined && { blocked }) };
}

/** A typed `/name args` is expanded into a command's or skill's text (no matcher); may block it. */
export async function userPromptExpansion(
  hooks: HookDispatcher,
  expansion: PromptExpansion,
  signal?: AbortSignal,
): Promise<PromptExpansionResult> {
  const outcomes = await hooks.run(
    "UserPromptExpansion",
    undefined,
    { expansion_type: "slash_command", ...expansion },
    signal,
  );
  const { context, errors, blocked } = foldContextOutcomes(outcomes, "blocked by a UserPromptExpansion hook");
  return { additionalContext: context, errors, ...(blocked !== undefined && { blocked }) };
}

/** `stopHookActive`: the model is already continuing because of a Stop hook (lets hooks avoid loops). */
export async function stop(hooks: HookDispatcher, stopHookActive: boolean, signal?: AbortSignal): Promise<StopResult> {
  const outcomes = await hooks.run("Stop", undefined, { stop_hook_active: stopHookActive }, signal);
  return foldStopOutcomes(outcomes, "a Stop hook asked to continue");
}

/** A turn ended on a model error (matcher: the kind of error); nothing can be changed, so the answer is ignored. */
export async function stopFailure(
  hooks: HookDispatcher,
  error: string,
  lastAssistantMessage: string,
  signal?: AbortSignal,
): Promise<{ errors: string[] }> {
  const kind: StopFailureKind = stopFailureKind(error);
  const outcomes = await hooks.run(
    "StopFailure",
    kind,
    { error: kind, error_details: error, last_assistant_message: lastAssistantMessage },
    signal,
  );
  return failuresOf(outcomes);
}

/**
 * Before a compaction (matcher: `manual` or `auto`). A hook's plain stdout or additionalContext
 * becomes an instruction for the summary; exit code 2, `decision: "block"` or `continue: false`
 * refuses the compaction; a hook that fails is reported and the compaction goes on (it guards
 * nothing the user could lose).
 */
export async function preCompact(
  hooks: HookDispatcher,
  trigger: CompactTrigger,
  customInstructions: string | undefined,
  signal?: AbortSignal,
): Promise<PreCompactResult> {
  const outcomes = await hooks.run(
    "PreCompact",
    trigger,
    { trigger, custom_instructions: customInstructions ?? null },
    signal,
  );
  const { context, errors, blocked } = foldContextOutcomes(outcomes, "a PreCompact hook refused the compaction");
  return { instructions: context, errors, ...(blocked !== undefined && { blocked }) };
}

/** After a compaction, with the summary the model wrote (matcher: `manual` or `auto`). */
export async function postCompact(
  hooks: HookDispatcher,
  trigger: CompactTrigger,
  summary: string,
  signal?: AbortSignal,
): Promise<{ errors: string[] }> {
  return failuresOf(await hooks.run("PostCompact", trigger, { trigger, compact_summary: summary }, signal));
}

/** The user is needed (matcher: the notification type); fire-and-forget, its answer is ignored. */
export async function notification(
  hooks: HookDispatcher,
  notificationType: NotificationType,
  message: string,
  signal?: AbortSignal,
): Promise<{ errors: string[] }> {
  const outcomes = await hooks.run(
    "Notification",
    notificationType,
    { message, notification_type: notificationType },
    signal,
  );
  return failuresOf(outcomes);
}

/** One flush of an assistant message's text as it is shown (see message-display.ts). */
export interface DisplayFlush {
  turnId: string;
  messageId: string;
  /** 0 for the message's first flush, one more for each after. */
  index: number;
  /** The message's last flush (exactly one per message). */
  final: boolean;
  /** The lines completed since the previous flush (the last flush may end mid-line). */
  delta: string;
}

/**
 * The model's text is about to be shown (no matcher): a hook's `displayContent` is shown in its
 * place (the last hook that gave one wins; empty hides it). Display only: the stored message and
 * what the model sees are untouched, so a hook that fails leaves the text as it was.
 */
export async function messageDisplay(
  hooks: HookDispatcher,
  flush: DisplayFlush,
  signal?: AbortSignal,
): Promise<{ display: string; errors: string[] }> {
  const outcomes = await hooks.run(
    "MessageDisplay",
    undefined,
    {
      turn_id: flush.turnId,
      message_id: flush.messageId,
      index: flush.index,
      final: flush.final,
      delta: flush.delta,
    },
    signal,
  );
  let display = flush.delta;
  for (const outcome of outcomes) {
    const replacement = outcome.kind === "success" ? outcome.json?.hookSpecificOutput?.displayContent : undefined;
    if (replacement !== undefined) display = replacement;
  }
  return { display, ...failuresOf(outcomes) };
}
