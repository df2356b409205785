// A tool_use as the model sent it, resolved once: its tool found in the pool and its input parsed
// by the tool's own schema. The executor judges concurrency on the result and runToolUse runs it,
// so neither looks the tool up or parses the input again. A call ready to run also carries its
// memo (tool/call-memo.ts): what one step learns about the input, a later step of the same call
// reuses (the Bash permission check's shell analysis, reused by the tool's call()).
import type { ToolUseBlock } from "../messages/types.js";
import { CallMemo } from "../tool/call-memo.js";
import { findToolByName } from "../tool/pool.js";
import { formatZodError } from "../tool/schema.js";
import type { AnyTool, ToolInput } from "../tool/types.js";

export type ResolvedToolCall =
  /** Ready to run: the tool, its parsed input, and the memory its steps share. */
  | { block: ToolUseBlock; tool: AnyTool; input: ToolInput; memo: CallMemo; problem?: undefined }
  /** Cannot run: `problem` is the error the model reads (arguments not JSON, schema failure). */
  | { block: ToolUseBlock; tool: AnyTool; input?: undefined; problem: string }
  /** No tool of that name in the pool. */
  | { block: ToolUseBlock; tool: undefined; input?: undefined; problem: string };

/**
 * zod's plain parser rather than its compiled one: for an object schema zod otherwise writes a
 * parser as source and compiles it (new Function) on the schema's first parse, in every process,
 * which costs more than the handful of calls a tool gets in a session; the result is the same.
 */
const INTERPRETED = { jitless: true } as const;

/** Longest part of unparsable arguments echoed back to the model. */
const MAX_ECHOED_ARGUMENTS = 2000;

export function resolveToolCall(block: ToolUseBlock, tools: readonly AnyTool[]): ResolvedToolCall {
  const tool = findToolByName(tools, block.name);
  if (!tool) return { block, tool: undefined, problem: `Error: No such tool available: ${block.name}` };
  if (block.invalidInput) {
    const { raw, error } = block.invalidInput;
    const shown = raw.length > MAX_ECHOED_ARGUMENTS ? `${raw.slice(0, MAX_ECHOED_ARGUMENTS)}…` : raw;
    const problem = `Error: the arguments for ${tool.name} were not a valid JSON object (${error}). Arguments received: ${shown}\nSend the call again with a JSON object that matches the tool's input schema.`;
    return { block, tool, problem };
  }
  const parsed = tool.inputSchema.safeParse(block.input, INTERPRETED);
  if (!parsed.success) return { block, tool, problem: formatZodError(tool.name, parsed.error) };
  return { block, tool, input: parsed.data as ToolInput, memo: new CallMemo() };
}
