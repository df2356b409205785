// The PreToolUse / PostToolUse hook calls around one tool call (called from
// src/orchestration/run-tool-use.ts). A PreToolUse hook can refuse, rewrite the input, add context
// for the model, or say allow / ask; that word goes to the permission engine with the call (a
// hook's allow skips the prompt but never a deny rule or a safety check).
import type { ToolResultBlock } from "../messages/types.js";
import type { PreToolUseHookDecision } from "../tool/permission-types.js";
import { formatZodError } from "../tool/schema.js";
import type { AnyTool, ToolInput, ToolUseContext } from "../tool/types.js";
import { queueReminders } from "./queue-reminders.js";

export type { PreToolUseHookDecision };

export type PreToolUseStep =
  | { kind: "refuse"; message: string }
  /** `decision`: what the hooks said about permission, for the engine (absent: no say). */
  | { kind: "continue"; input: ToolInput; decision?: PreToolUseHookDecision };

export async function runPreToolUseHooks(
  tool: AnyTool,
  input: ToolInput,
  context: ToolUseContext,
  toolUseId: string,
): Promise<PreToolUseStep> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("PreToolUse")) return { kind: "continue", input };
  const result = await hooks.preToolUse(tool.name, input, toolUseId, context.abortController.signal);
  // Cancelled while the hook ran: the caller reports an interruption, not the killed hook.
  if (context.abortController.signal.aborted) throw new Error("interrupted while PreToolUse hooks ran");
  if (result.behavior === "deny") {
    if (result.stop !== undefined) context.channels.hookStop.put(result.stop);
    return { kind: "refuse", message: result.message };
  }
  let nextInput = input;
  if (result.updatedInput) {
    // A rewritten input is checked like the model's own: a hook cannot smuggle in a malformed call.
    const parsed = tool.inputSchema.safeParse(result.updatedInput);
    if (!parsed.success) {
      return {
        kind: "refuse",
        message: `A PreToolUse hook rewrote the input badly.\n${formatZodError(tool.name, parsed.error)}`,
      };
    }
    nextInput = parsed.data as ToolInput;
  }
  queueReminders(
    context,
    result.additionalContext.map((text) => `PreToolUse hook context for ${tool.name}: ${text}`),
  );
  const decision: PreToolUseHookDecision | undefined =
    result.behavior === "none" ? undefined : { behavior: result.behavior, reason: result.reason, hooks: result.hooks };
  return { kind: "continue", input: nextInput, decision };
}

/** Runs PostToolUse hooks; their feedback is appended to the result the model reads. */
export async function runPostToolUseHooks(
  tool: AnyTool,
  input: ToolInput,
  output: unknown,
  result: ToolResultBlock,
  context: ToolUseContext,
): Promise<ToolResultBlock> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("PostToolUse")) return result;
  const post = await hooks.postToolUse(tool.name, input, output, result.tool_use_id, context.abortController.signal);
  if (post.stop !== undefined) context.channels.hookStop.put(post.stop);
  queueReminders(
    context,
    post.additionalContext.map((text) => `PostToolUse hook context for ${tool.name}: ${text}`),
  );
  const notes = [
    ...post.feedback.map((text) => `PostToolUse hook feedback: ${text}`),
    ...post.errors.map((text) => `PostToolUse hook error: ${text}`),
  ];
  if (notes.length === 0) return result;
  return withNote(result, notes.join("\n"));
}

/**
 * Runs PostToolUseFailure hooks for a call that ended in an error (instead of PostToolUse): their
 * additionalContext reaches the model's next request, their own failures are noted in the result.
 */
export async function runPostToolUseFailureHooks(
  tool: AnyTool,
  input: ToolInput,
  result: ToolResultBlock,
  context: ToolUseContext,
): Promise<ToolResultBlock> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("PostToolUseFailure")) return result;
  const error = resultText(result);
  const failure = await hooks.postToolUseFailure(
    tool.name,
    input,
    result.tool_use_id,
    error,
    context.abortController.signal,
  );
  if (failure.stop !== undefined) context.channels.hookStop.put(failure.stop);
  queueReminders(
    context,
    failure.additionalContext.map((text) => `PostToolUseFailure hook context for ${tool.name}: ${text}`),
  );
  if (failure.errors.length === 0) return result;
  return withNote(result, failure.errors.map((text) => `PostToolUseFailure hook error: ${text}`).join("\n"));
}

function resultText(result: ToolResultBlock): string {
  if (typeof result.content === "string") return result.content;
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

function withNote(result: ToolResultBlock, extra: string): ToolResultBlock {
  const content =
    typeof result.content === "string"
      ? `${result.content}\n\n${extra}`
      : [...result.content, { type: "text" as const, text: extra }];
  return { ...result, content };
}

/**
 * Runs PermissionDenied hooks for a call the auto-mode classifier refused: `retry: true` adds a
 * line telling the model it may try again. The refusal itself stands whatever they say.
 */
export async function runPermissionDeniedHooks(
  tool: AnyTool,
  input: ToolInput,
  result: ToolResultBlock,
  reason: string,
  context: ToolUseContext,
): Promise<ToolResultBlock> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("PermissionDenied")) return result;
  const denied = await hooks.permissionDenied(
    { toolName: tool.name, toolInput: input, toolUseId: result.tool_use_id, reason },
    context.abortController.signal,
  );
  const notes = denied.errors.map((text) => `PermissionDenied hook error: ${text}`);
  if (denied.retry) notes.unshift("A PermissionDenied hook says you may retry this call.");
  if (notes.length === 0) return result;
  return withNote(result, notes.join("\n"));
}

/**
 * Runs PostToolBatch hooks once every call of a model response has its result, before the next
 * request: their feedback and additionalContext reach the model on that request.
 */
export async function runPostToolBatchHooks(
  toolUses: readonly { id: string; name: string; input: ToolInput }[],
  results: readonly ToolResultBlock[],
  context: ToolUseContext,
): Promise<void> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("PostToolBatch")) return;
  const calls = toolUses.map((use) => {
    const result = results.find((r) => r.tool_use_id === use.id);
    return {
      tool_name: use.name,
      tool_input: use.input,
      tool_use_id: use.id,
      tool_response: result ? resultText(result) : "",
      is_error: result?.is_error === true,
    };
  });
  const batch = await hooks.postToolBatch(calls, context.abortController.signal);
  if (batch.stop !== undefined) context.channels.hookStop.put(batch.stop);
  queueReminders(context, [
    ...batch.feedback.map((text) => `PostToolBatch hook feedback: ${text}`),
    ...batch.additionalContext.map((text) => `PostToolBatch hook context: ${text}`),
    ...batch.errors.map((text) => `PostToolBatch hook error: ${text}`),
  ]);
}
