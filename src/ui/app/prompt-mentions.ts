// The files a prompt mentions (`@path`), read and attached before it is sent: each Read shows in
// the transcript as a tool call, a mention that could not be attached as a warning. Esc stops the
// reading (through `sideAbort`), and the prompt is then not sent.
import { INTERRUPTED_BY_USER } from "../../loop/query.js";
import { toolResultText } from "../../messages/types.js";
import type { TranscriptModel } from "../transcript/transcript-model.js";
import type { SessionHandle } from "./session-handle.js";

/** Attaches the files `text` mentions; false when Esc stopped it. */
export async function attachPromptMentions(
  current: SessionHandle,
  text: string,
  transcript: TranscriptModel,
  sideAbort: { current: AbortController | undefined },
): Promise<boolean> {
  if (!text.includes("@")) return true;
  const abort = new AbortController();
  sideAbort.current = abort;
  try {
    for (const outcome of await current.attachMentions(text, abort.signal)) {
      if (outcome.read && !outcome.read.result.is_error)
        transcript.addToolCall(outcome.read.toolUse, outcome.read.result);
      else {
        const reason = outcome.read
          ? toolResultText(outcome.read.result.content).replace(/^Error: /, "")
          : outcome.problem;
        transcript.addNotice(`@${outcome.mention} was not attached: ${reason}`, "warning");
      }
    }
  } catch (error) {
    transcript.addNotice(`Attaching files failed: ${error instanceof Error ? error.message : String(error)}`, "error");
  } finally {
    sideAbort.current = undefined;
  }
  if (abort.signal.aborted) transcript.addNotice(INTERRUPTED_BY_USER, "warning");
  return !abort.signal.aborted;
}
