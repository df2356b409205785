// `!command` typed at the prompt: run through the Bash tool (its permission check included) while
// the prompt is held, the result shown in the transcript and given to the model with the next
// prompt (SessionHandle.runShell). Esc stops it through `sideAbort`.
import type { TranscriptModel } from "../transcript/transcript-model.js";
import type { SessionHandle } from "./session-handle.js";

export async function runShellCommand(
  handle: SessionHandle,
  command: string,
  transcript: TranscriptModel,
  sideAbort: { current: AbortController | undefined },
  markBusy: (busy: boolean) => void,
): Promise<void> {
  const abort = new AbortController();
  sideAbort.current = abort;
  markBusy(true);
  try {
    const { toolUse, result } = await handle.runShell(command, abort.signal);
    transcript.addShellResult(toolUse, result);
  } catch (error) {
    transcript.addNotice(`!${command}: ${error instanceof Error ? error.message : String(error)}`, "error");
  } finally {
    sideAbort.current = undefined;
    markBusy(false);
  }
}
