// One run of a child's query() loop to its end, shared by a one-shot subagent (./run.ts) and each
// working stretch of a teammate (./teammate.ts): every message goes to the sidechain transcript,
// the last non-empty text is kept as its report, and a thrown error ends it as a model_error (a
// child's failure is its result, never the parent's exception).
import { emptyUsage, textOf } from "../../messages/types.js";
import type { TranscriptWriter } from "../../session/transcript.js";
import type { QueryEvent, TerminalEvent } from "../events.js";
import { type QueryParams, query } from "../query.js";

export interface ChildRun {
  /** How the loop ended; absent when `onEvent` stopped it. */
  terminal?: TerminalEvent;
  /** The last assistant text that was not blank. */
  lastText: string;
}

/**
 * Drives the loop; `onEvent` sees each event after it is recorded and returns true to end the loop
 * there (no further request is sent).
 */
export async function driveChildLoop(
  params: QueryParams,
  transcript: TranscriptWriter | undefined,
  onEvent: (event: QueryEvent) => boolean | undefined = () => undefined,
): Promise<ChildRun> {
  const loop = query(params);
  let lastText = "";
  try {
    while (true) {
      const step = await loop.next();
      if (step.done) return { terminal: step.value, lastText };
      const event = step.value;
      if (event.type === "assistant" || event.type === "user") {
        transcript?.recordMessage(event.message);
        if (event.type === "assistant" && textOf(event.message).trim() !== "") lastText = textOf(event.message);
      }
      // The parent's result lists what was refused here too (`permission_denials`).
      if (event.type === "tool_result" && event.denial) params.context.options.reportDenial?.(event.denial);
      // On disk before anyone is shown it (loop/session.ts flushBeforeShowing says why).
      transcript?.flush();
      if (onEvent(event) === true) {
        await loop.return(undefined as never);
        return { lastText };
      }
    }
  } catch (error) {
    const terminal: TerminalEvent = {
      type: "terminal",
      reason: "model_error",
      turnCount: 0,
      usage: emptyUsage(),
      error: error instanceof Error ? error.message : String(error),
    };
    return { terminal, lastText };
  }
}
