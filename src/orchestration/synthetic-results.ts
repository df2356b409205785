import type { ToolResultBlock, ToolUseBlock } from "../messages/types.js";
import type { ToolAbortReason } from "./abort-tree.js";
import { errorResult } from "./run-tool-use.js";

/** How a call that never produced its own result is described to the model. */
export function syntheticMessage(reason: ToolAbortReason, started: boolean, erroredSibling?: string): string {
  switch (reason) {
    case "sibling_error":
      return `Cancelled: parallel tool call ${erroredSibling ?? "beside it"} errored, so this call ${started ? "was stopped" : "was not run"}.`;
    case "interrupt":
      return started
        ? "Interrupted by the user's new message: the tool call was cancelled before it finished."
        : "Interrupted by the user's new message: the tool call was not run.";
    case "discarded":
      return "The tool call was discarded because its response was abandoned; it did not finish.";
    case "user_cancel":
      return started
        ? "Interrupted by the user: the tool call was cancelled before it finished."
        : "Interrupted by the user: the tool call was not run.";
  }
}

export function syntheticResult(
  block: ToolUseBlock,
  reason: ToolAbortReason,
  started: boolean,
  erroredSibling?: string,
): ToolResultBlock {
  return errorResult(block.id, syntheticMessage(reason, started, erroredSibling));
}

/** `Bash(npm test)`: names the failed call in its siblings' results, short enough to read. */
export function describeCall(block: ToolUseBlock): string {
  const input = block.input;
  const first = typeof input.command === "string" ? input.command : JSON.stringify(input);
  const shown = first.length > 60 ? `${first.slice(0, 57)}...` : first;
  return `${block.name}(${shown})`;
}
