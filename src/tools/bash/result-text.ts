// What the model reads after a Bash call: the output, then short notes on anything it should know
// (exit code, what a "failing" code really means, timeout, interruption, sandbox, directory reset).
import type { ToolResultBlock } from "../../messages/types.js";
import type { CommandHint } from "./hints.js";
import type { ImageForModel } from "./image-output.js";

export interface BashOutput {
  command: string;
  /** stdout and stderr as they arrived (or, for huge output, a note with head and tail). */
  output: string;
  exitCode: number | null;
  signal?: string | null;
  /** The exit code means failure (semantics applied: grep's 1 is not one). */
  isError: boolean;
  /** What a non-failing, non-zero exit code means ("No matches found"). */
  meaning?: string;
  timedOut: boolean;
  timeoutMs?: number;
  interrupted: boolean;
  /** The directory the next command will run in. */
  cwd: string;
  notes: string[];
  sandboxed: boolean;
  fullOutputPath?: string;
  backgroundTaskId?: string;
  /**
   * Why a foreground command went on in the background: the person sent it (Ctrl+B), or it was
   * still running at its timeout (or the blocking budget) and typically runs long.
   */
  movedToBackground?: "user" | "timeout";
  backgroundOutputPath?: string;
  /** Hint tags the command printed, taken out of output (hints.ts). */
  hints?: CommandHint[];
  /** The command's output was an image: sent to the model as an image block (image-output.ts). */
  image?: ImageForModel;
}

const GIT_INDEX_LOCK = /index\.lock'?:? File exists|Unable to create '[^']*index\.lock'/;

/**
 * A git command that failed on .git/index.lock: another git process is running or one crashed
 * and left its lock behind. Without the hint the model tends to retry the same command in a loop.
 */
export function gitIndexLockNote(output: string): string | undefined {
  if (!GIT_INDEX_LOCK.test(output)) return undefined;
  return "git could not take .git/index.lock: another git process is running, or a crashed one left the lock behind. Wait for the other process; if none is running, tell the user about the stale lock instead of deleting it yourself.";
}

export function bashResultText(output: BashOutput): string {
  if (output.backgroundTaskId) {
    return (
      (output.movedToBackground === "user" ? "The user moved this command to the background while it ran. " : "") +
      (output.movedToBackground === "timeout"
        ? `The command was still running after ${(output.timeoutMs ?? 0) / 1000} s, so it was moved to the background instead of being stopped (it typically runs long). `
        : "") +
      `Command running in the background with task id ${output.backgroundTaskId}. ` +
      `Its output is written to ${output.backgroundOutputPath}. ` +
      "You will be notified when it finishes; read its output with TaskOutput and stop it with TaskStop."
    );
  }
  const parts: string[] = [];
  const body = output.output.replace(/\s+$/, "");
  parts.push(body.length ? body : "(no output)");
  if (output.timedOut) {
    parts.push(
      `Command timed out after ${(output.timeoutMs ?? 0) / 1000} s; it and every process it started were stopped.`,
    );
  } else if (output.interrupted) {
    parts.push("Command was interrupted; it and every process it started were stopped.");
  } else if (output.meaning) {
    parts.push(`Exit code ${output.exitCode}: ${output.meaning} (not an error).`);
  } else if (output.isError) {
    parts.push(
      output.exitCode === null ? `Command was killed by signal ${output.signal}.` : `Exit code ${output.exitCode}`,
    );
  }
  parts.push(...output.notes);
  return parts.join("\n");
}

export function bashToolResult(output: BashOutput, toolUseId: string): ToolResultBlock {
  const failed = !output.backgroundTaskId && (output.isError || output.timedOut || output.interrupted);
  const text = bashResultText(output);
  return {
    type: "tool_result",
    tool_use_id: toolUseId,
    content: output.image
      ? [
          { type: "text", text },
          { type: "image", source: { type: "base64", media_type: output.image.mediaType, data: output.image.base64 } },
        ]
      : text,
    ...(failed ? { is_error: true } : {}),
  };
}
