import type { ToolResultContent } from "../messages/types.js";
import type { AnyTool } from "../tool/types.js";

/**
 * No single result may put more than this into the context, whatever its tool declares: a tool
 * asking for 100,000 gets 50,000. Tools declare less where their output is noisy (Bash 30,000,
 * Grep 20,000) or Infinity where persisting would loop (Read: the model would have to Read the
 * saved file, which would be persisted again).
 */
export const SYSTEM_MAX_RESULT_SIZE_CHARS = 50_000;

/** All tool results of one user message together (many parallel calls must not flood the context). */
export const MAX_TOOL_RESULTS_PER_MESSAGE_CHARS = 200_000;

/** The size above which this tool's result is persisted; Infinity means never. */
export function effectiveResultLimit(tool: Pick<AnyTool, "maxResultSizeChars"> | undefined): number {
  if (!tool) return SYSTEM_MAX_RESULT_SIZE_CHARS;
  const declared = tool.maxResultSizeChars;
  if (declared === Number.POSITIVE_INFINITY) return declared;
  // A missing, negative or NaN declaration must not disable the limit: fall back to the cap.
  if (!(declared >= 0)) return SYSTEM_MAX_RESULT_SIZE_CHARS;
  return Math.min(declared, SYSTEM_MAX_RESULT_SIZE_CHARS);
}

/** Characters the model reads from a result's content; images are not counted (they cannot be previewed as text). */
export function resultContentSize(content: ToolResultContent): number {
  if (typeof content === "string") return content.length;
  let size = 0;
  for (const block of content) if (block.type === "text") size += block.text.length;
  return size;
}

/** The text of a result that can be written to a file, or undefined when it carries an image. */
export function persistableText(content: ToolResultContent): string | undefined {
  if (typeof content === "string") return content;
  if (content.some((block) => block.type !== "text")) return undefined;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}
