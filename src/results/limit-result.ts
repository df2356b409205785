import type { ToolResultBlock } from "../messages/types.js";
import type { AnyTool } from "../tool/types.js";
import { effectiveResultLimit, persistableText, resultContentSize } from "./limits.js";
import { persistToolResult } from "./persist.js";
import { isPersistedOutput, persistedOutputMessage, unpersistableOutputMessage } from "./persisted-output.js";

/**
 * The same result with its content saved to disk and replaced by a `<persisted-output>` preview.
 * Results that carry images, or were already persisted, come back unchanged (there is nothing
 * a text preview could stand in for). A failed write still shrinks the result, with the reason.
 */
export async function persistResultBlock(result: ToolResultBlock, sessionDir: string): Promise<ToolResultBlock> {
  const text = persistableText(result.content);
  if (text === undefined || isPersistedOutput(text)) return result;
  let content: string;
  try {
    const path = await persistToolResult(text, result.tool_use_id, sessionDir);
    content = persistedOutputMessage(text, path);
  } catch (error) {
    content = unpersistableOutputMessage(text, error instanceof Error ? error.message : String(error));
  }
  return { ...result, content };
}

/** Applies the tool's own size limit (capped by the system limit) to one fresh result. */
export async function applyToolResultLimit(
  result: ToolResultBlock,
  tool: Pick<AnyTool, "maxResultSizeChars"> | undefined,
  sessionDir: string,
): Promise<ToolResultBlock> {
  const limit = effectiveResultLimit(tool);
  if (resultContentSize(result.content) <= limit) return result;
  return persistResultBlock(result, sessionDir);
}
