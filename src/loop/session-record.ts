// What a session writes to its transcript at the ends of things: a query's result, and a
// compaction (the boundary, then the summary and the state put back, which replace the history).
import type { TranscriptEntry, TranscriptWriter } from "../session/transcript.js";
import type { CompactBoundaryEvent, TerminalEvent } from "./events.js";

export function recordQueryResult(transcript: TranscriptWriter | undefined, event: TerminalEvent): void {
  const entry: TranscriptEntry = {
    type: "result",
    reason: event.reason,
    turnCount: event.turnCount,
    usage: event.usage,
    timestamp: new Date().toISOString(),
  };
  if (event.error !== undefined) entry.error = event.error;
  transcript?.recordEntry(entry);
}

export function recordCompaction(
  transcript: TranscriptWriter | undefined,
  event: CompactBoundaryEvent,
  loadedDeferredTools: readonly string[],
): void {
  transcript?.recordEntry({
    type: "compact_boundary",
    trigger: event.trigger,
    preTokens: event.preTokens,
    postTokens: event.postTokens,
    // A resumed session must keep sending the schemas of tools it loaded before the summary.
    loadedDeferredTools: [...loadedDeferredTools],
  });
  for (const message of event.messages) transcript?.recordMessage(message);
}
