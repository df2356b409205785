// The events around one tool call (matcher: the tool's name): PreToolUse, PermissionRequest,
// PermissionDenied, PostToolUse, PostToolUseFailure, and PostToolBatch once a response's calls
// all have results.
import type {
  PostToolBatchResult,
  PostToolUseFailureResult,
  PostToolUseResult,
  PreToolUseResult,
  ToolBatchCall,
} from "../tool/tool-call-hooks.js";
import type { ToolInput } from "../tool/types.js";
import { foldPermissionDenied, foldPostToolBatch } from "./batch-and-denial.js";
import type { HookDispatcher } from "./hook-dispatch.js";
import { continuationStop, foldContextOutcomes } from "./hook-folds.js";
import { foldPermissionRequestOutcomes, type PermissionRequestResult } from "./permission-request.js";
import { foldPostToolUse, foldPreToolUse } from "./tool-event-folds.js";

export async function preToolUse(
  hooks: HookDispatcher,
  toolName: string,
  toolInput: ToolInput,
  toolUseId: string,
  signal?: AbortSignal,
): Promise<PreToolUseResult> {
  const outcomes = await hooks.run(
    "PreToolUse",
    toolName,
    { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId },
    signal,
  );
  return foldPreToolUse(outcomes);
}

export async function postToolUse(
  hooks: HookDispatcher,
  toolName: string,
  toolInput: ToolInput,
  toolResponse: unknown,
  toolUseId: string,
  signal?: AbortSignal,
): Promise<PostToolUseResult> {
  const outcomes = await hooks.run(
    "PostToolUse",
    toolName,
    { tool_name: toolName, tool_input: toolInput, tool_response: toolResponse, tool_use_id: toolUseId },
    signal,
  );
  return foldPostToolUse(outcomes);
}

export async function postToolBatch(
  hooks: HookDispatcher,
  calls: readonly ToolBatchCall[],
  signal?: AbortSignal,
): Promise<PostToolBatchResult> {
  return foldPostToolBatch(await hooks.run("PostToolBatch", undefined, { tool_calls: calls }, signal));
}

export async function permissionDenied(
  hooks: HookDispatcher,
  call: { toolName: string; toolInput: ToolInput; toolUseId: string; reason: string },
  signal?: AbortSignal,
): Promise<{ retry: boolean; errors: string[] }> {
  const payload = {
    tool_name: call.toolName,
    tool_input: call.toolInput,
    tool_use_id: call.toolUseId,
    reason: call.reason,
  };
  return foldPermissionDenied(await hooks.run("PermissionDenied", call.toolName, payload, signal));
}

/** A tool call that ended in an error; additionalContext reaches the model, nothing can be undone. */
export async function postToolUseFailure(
  hooks: HookDispatcher,
  toolName: string,
  toolInput: ToolInput,
  toolUseId: string,
  error: string,
  signal?: AbortSignal,
): Promise<PostToolUseFailureResult> {
  const outcomes = await hooks.run(
    "PostToolUseFailure",
    toolName,
    { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId, error, is_interrupt: false },
    signal,
  );
  const { context, errors } = foldContextOutcomes(outcomes, "");
  const stop = continuationStop(outcomes, "PostToolUseFailure");
  return { additionalContext: context, errors, ...(stop === undefined ? {} : { stop }) };
}

/**
 * Somebody is about to be asked about a tool call (matcher: the tool's name); a hook may answer
 * allow or deny for them. `suggestions`: the "don't ask again" rules the question would offer.
 */
export async function permissionRequest(
  hooks: HookDispatcher,
  toolName: string,
  toolInput: ToolInput,
  toolUseId: string,
  suggestions: readonly unknown[],
  signal?: AbortSignal,
): Promise<PermissionRequestResult> {
  const outcomes = await hooks.run(
    "PermissionRequest",
    toolName,
    { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId, permission_suggestions: suggestions },
    signal,
  );
  return foldPermissionRequestOutcomes(outcomes);
}
