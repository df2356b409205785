// An idle session takes a turn, unprompted, when something arrives for the model: a background
// task ends, a scheduled prompt falls due, a teammate or another session writes (src/loop/wake.ts).
// The App asks here when to start that turn; the screen says what it is for before it runs.
import { useEffect } from "react";
import type { TranscriptModel } from "../transcript/transcript-model.js";
import type { SessionHandle } from "./session-handle.js";

/** Longest line of a notice shown for a wake; the model gets the whole text. */
const NOTICE_LINE_MAX = 160;

/**
 * Starts `runWake` whenever the session is idle and a turn is due: when one becomes due, and when
 * the running prompt (or `!command`, or compaction) ends with one due.
 */
export function useWake(handle: SessionHandle | undefined, busy: boolean, runWake: (text: undefined) => unknown): void {
  useEffect(() => {
    if (!handle || busy) return;
    const engine = handle.engine;
    const check = () => {
      if (engine.wakeDue) void runWake(undefined);
    };
    check();
    return engine.onWake(check);
  }, [handle, busy, runWake]);
}

/** Puts on screen what the turn about to start is for: the scheduled prompts, the notices' first lines. */
export function showWakeReason(handle: SessionHandle, transcript: TranscriptModel): void {
  const { channels } = handle.engine;
  for (const message of channels.userMessages.peek()) {
    const text = message.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("\n")
      .trim();
    if (text) transcript.addUser(text);
  }
  for (const reminder of channels.reminders.peek()) transcript.addNotice(`⏵ ${firstLine(reminder)}`);
}

/** A notice's first sentence or line, without the tags that frame it for the model. */
function firstLine(text: string): string {
  const plain = text
    .replace(/<\/?[a-z-]+>/g, "")
    .trim()
    .split("\n")[0] as string;
  const sentenceEnd = plain.search(/\.\s/);
  const line = sentenceEnd > 0 ? plain.slice(0, sentenceEnd + 1) : plain;
  return line.length > NOTICE_LINE_MAX ? `${line.slice(0, NOTICE_LINE_MAX - 1)}…` : line;
}
