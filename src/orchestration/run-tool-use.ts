import {
  runPermissionDeniedHooks,
  runPostToolUseFailureHooks,
  runPostToolUseHooks,
  runPreToolUseHooks,
} from "../hooks/tool-hooks.js";
import type { AssistantMessage, Message, ToolResultBlock, ToolUseBlock } from "../messages/types.js";
import type { PermissionDecisionReason } from "../tool/permission-types.js";
import type { AnyTool, CanUseTool, ToolInput, ToolUseContext } from "../tool/types.js";
import { sessionWorkingDirectory } from "../tool/working-directory.js";
import { checkedDecision } from "./decision-shape.js";
import { type ResolvedToolCall, resolveToolCall } from "./resolve-call.js";

/** A call the permission layer refused, as reported in the headless result's permission_denials. */
export interface PermissionDenialRecord {
  tool_name: string;
  tool_use_id: string;
  tool_input: ToolInput;
  reason?: PermissionDecisionReason;
}

export interface ToolRunOutcome {
  result: ToolResultBlock;
  /** What the tool's call() returned as data, before mapToolResult (absent when it did not run or failed). */
  output?: unknown;
  tool?: AnyTool;
  newMessages?: Message[];
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
  denial?: PermissionDenialRecord;
  /** The refusal also stopped the turn (PermissionDeny.interrupt): the executor ends it after this result. */
  interruptsTurn?: boolean;
}

export function errorResult(toolUseId: string, message: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: toolUseId, content: message, is_error: true };
}

export const INTERRUPTED_MESSAGE = "Interrupted by the user: the tool call was cancelled before it finished.";

/**
 * Runs one tool_use from start to finish and always produces exactly one tool_result: unknown
 * tool, bad input, refused permission and a throwing tool all become error results the model can
 * read and act on, never an exception that would leave the tool_use unpaired. For a single call
 * (the MCP server, tests); the executor resolves each call once and runs it with runResolvedToolCall.
 */
export function runToolUse(
  block: ToolUseBlock,
  context: ToolUseContext,
  canUseTool: CanUseTool,
  assistantMessage: AssistantMessage | undefined,
  onProgress?: (progress: unknown) => void,
): Promise<ToolRunOutcome> {
  return runResolvedToolCall(
    resolveToolCall(block, context.options.tools),
    context,
    canUseTool,
    assistantMessage,
    onProgress,
  );
}

/** runToolUse for a call whose tool was already found and input already parsed (resolveToolCall). */
export async function runResolvedToolCall(
  call: ResolvedToolCall,
  context: ToolUseContext,
  canUseTool: CanUseTool,
  assistantMessage: AssistantMessage | undefined,
  onProgress?: (progress: unknown) => void,
  /** Told just before the tool itself is called (its checks, hooks and permission passed). */
  onToolCalled?: () => void,
): Promise<ToolRunOutcome> {
  const { block } = call;
  if (!call.tool) return { result: errorResult(block.id, call.problem) };
  const tool = call.tool;
  if (context.abortController.signal.aborted) {
    return { tool, result: errorResult(block.id, INTERRUPTED_MESSAGE) };
  }
  if (call.problem !== undefined) return { tool, result: errorResult(block.id, call.problem) };

  const callContext: ToolUseContext = { ...context, toolUseId: block.id, callMemo: call.memo };
  // Relative paths are made absolute once, against where the session is when the call starts, and
  // again after each rewrite below: every step judges the path the call will act on.
  const cwd = sessionWorkingDirectory(callContext);
  const absolute = (raw: ToolInput): ToolInput => tool.withAbsolutePaths?.(raw, cwd) ?? raw;
  let input = absolute(call.input);

  try {
    if (tool.validateInput) {
      const validation = await tool.validateInput(input, callContext);
      if (!validation.result) {
        return { tool, result: errorResult(block.id, validation.message) };
      }
    }

    // PreToolUse hooks may refuse, rewrite the input, or tell the permission engine allow / ask.
    const pre = await runPreToolUseHooks(tool, input, callContext, block.id);
    if (pre.kind === "refuse") {
      const reason = { type: "hook" as const, hookName: "PreToolUse", reason: pre.message };
      return {
        tool,
        result: errorResult(block.id, pre.message),
        denial: { tool_name: tool.name, tool_use_id: block.id, tool_input: input, reason },
      };
    }
    input = absolute(pre.input);

    const decision = checkedDecision(
      await canUseTool(tool, input, callContext, assistantMessage, block.id, { preToolUseDecision: pre.decision }),
    );
    if (decision.behavior !== "allow") {
      const refused = errorResult(block.id, decision.message);
      const reason = decision.decisionReason;
      return {
        tool,
        // Auto mode's classifier refused: PermissionDenied hooks may tell the model to retry.
        result:
          reason?.type === "classifier"
            ? await runPermissionDeniedHooks(tool, input, refused, reason.reason, callContext)
            : refused,
        denial: { tool_name: tool.name, tool_use_id: block.id, tool_input: input, reason: decision.decisionReason },
        ...(decision.behavior === "deny" && decision.interrupt === true && { interruptsTurn: true }),
      };
    }
    if (decision.updatedInput) input = absolute(decision.updatedInput);

    let output: Awaited<ReturnType<AnyTool["call"]>>;
    try {
      onToolCalled?.();
      output = await tool.call(input, callContext, canUseTool, assistantMessage, onProgress);
    } catch (error) {
      if (context.abortController.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const failed = errorResult(block.id, `Error: ${message}`);
      return { tool, result: await runPostToolUseFailureHooks(tool, input, failed, callContext) };
    }
    if (typeof output !== "object" || output === null || !("data" in output)) {
      // A library's own tool that forgot to wrap its result: say so, not "reading 'data'".
      const given = output === null ? "null" : typeof output;
      const failed = errorResult(block.id, `Error: the ${tool.name} tool's call() returned ${given}, not { data }`);
      return { tool, result: await runPostToolUseFailureHooks(tool, input, failed, callContext) };
    }
    const mapped = tool.mapToolResult(output.data, block.id);
    // A call whose result is an error failed: PostToolUseFailure runs for it, not PostToolUse.
    const result = mapped.is_error
      ? await runPostToolUseFailureHooks(tool, input, mapped, callContext)
      : await runPostToolUseHooks(tool, input, output.data, mapped, callContext);
    return {
      tool,
      result,
      output: output.data,
      newMessages: output.newMessages,
      contextModifier: output.contextModifier,
    };
  } catch (error) {
    if (context.abortController.signal.aborted) {
      return { tool, result: errorResult(block.id, INTERRUPTED_MESSAGE) };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { tool, result: errorResult(block.id, `Error: ${message}`) };
  }
}
