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

/** What a running call showed of its output before it was stopped (a long Bash command's progress). */
export interface PartialOutput {
  /** Its last lines. */
  text: string;
  /** How many lines it had written in all, when it said. */
  totalLines?: number;
}

/** The output a progress report carries (`{ output, totalLines }`, as Bash reports), if any. */
export function partialOutputOf(progress: unknown): PartialOutput | undefined {
  if (typeof progress !== "object" || progress === null) return undefined;
  const { output, totalLines } = progress as { output?: unknown; totalLines?: unknown };
  if (typeof output !== "string" || output.trim() === "") return undefined;
  return typeof totalLines === "number" ? { text: output, totalLines } : { text: output };
}

export function syntheticResult(
  block: ToolUseBlock,
  reason: ToolAbortReason,
  started: boolean,
  erroredSibling?: string,
  outputSoFar?: PartialOutput,
): ToolResultBlock {
  const message = syntheticMessage(reason, started, erroredSibling);
  if (!started || !outputSoFar) return errorResult(block.id, message);
  // The person saw this output on screen when they stopped the call; the model reads it too.
  const shown = outputSoFar.text.replace(/\s+$/, "").split("\n").length;
  const earlier =
    outputSoFar.totalLines !== undefined && outputSoFar.totalLines > shown
      ? ` (its last ${shown} of ${outputSoFar.totalLines} lines)`
      : "";
  return errorResult(block.id, `${message}\nOutput before it was stopped${earlier}:\n${outputSoFar.text}`);
}

/** `Bash(npm test)`: names the failed call in its siblings' results, short enough to read. */
export function describeCall(block: ToolUseBlock): string {
  const input = block.input;
  const first = typeof input.command === "string" ? input.command : JSON.stringify(input);
  const shown = first.length > 60 ? `${first.slice(0, 57)}...` : first;
  return `${block.name}(${shown})`;
}
