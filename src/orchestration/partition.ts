import type { ToolUseBlock } from "../messages/types.js";
import type { AnyTool } from "../tool/types.js";
import { type ResolvedToolCall, resolveToolCall } from "./resolve-call.js";

export interface ToolCallBatch {
  isConcurrencySafe: boolean;
  blocks: ToolUseBlock[];
}

/**
 * Whether this call may run beside others, as its tool judges its own parsed input (Bash: only a
 * read-only command) in the session's directory `cwd`, keeping what it learns on the call's memo.
 * Unknown tools, input that did not parse and a judgement that throws all count as unsafe: the
 * call then runs alone, which is slower but never wrong.
 */
export function isCallConcurrencySafe(call: ResolvedToolCall, cwd?: string): boolean {
  if (call.problem !== undefined) return false;
  try {
    return call.tool.isConcurrencySafe(call.input, { cwd, memo: call.memo }) === true;
  } catch {
    return false;
  }
}

/**
 * Splits a turn's calls into batches: each run of consecutive concurrency-safe calls is one batch
 * (run together), every other call is a batch of its own (run alone). Order is never changed: an
 * unsafe call is a barrier between what came before it and what comes after. The streaming
 * executor schedules by the same rule as the calls arrive; this states it for a whole turn.
 */
export function partitionToolCalls(blocks: readonly ToolUseBlock[], tools: readonly AnyTool[]): ToolCallBatch[] {
  const batches: ToolCallBatch[] = [];
  for (const block of blocks) {
    const safe = isCallConcurrencySafe(resolveToolCall(block, tools));
    const last = batches[batches.length - 1];
    if (safe && last?.isConcurrencySafe) last.blocks.push(block);
    else batches.push({ isConcurrencySafe: safe, blocks: [block] });
  }
  return batches;
}
