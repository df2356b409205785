import type { AssistantMessage, ToolUseBlock } from "../messages/types.js";
import type { CanUseTool, ToolUseContext } from "../tool/types.js";
import { StreamingToolExecutor, type ToolExecutionUpdate } from "./streaming-executor.js";

/**
 * Runs calls that are all known up front (a response that was not streamed, a resumed turn):
 * the same scheduling as while streaming, with every call handed over at once. Returns the
 * context with all contextModifiers applied.
 */
export async function* runTools(
  blocks: readonly ToolUseBlock[],
  assistantMessage: AssistantMessage | undefined,
  context: ToolUseContext,
  canUseTool: CanUseTool,
  maxConcurrency?: number,
): AsyncGenerator<ToolExecutionUpdate, ToolUseContext> {
  const executor = new StreamingToolExecutor({ context, canUseTool, maxConcurrency });
  for (const block of blocks) executor.addTool(block, assistantMessage);
  yield* executor.getRemainingResults();
  return executor.getUpdatedContext();
}
