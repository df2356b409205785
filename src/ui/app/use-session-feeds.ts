// What a session sends the transcript on its own, beside the prompt's events: its set-up notices
// (settings warnings, the trust notice), MCP servers' warnings and errors as they come, and its
// subagents' calls as they run (foreground ones under their Agent call, background ones on their own).
import { useEffect } from "react";
import type { TranscriptModel } from "../transcript/transcript-model.js";
import type { SessionHandle } from "./session-handle.js";

/** The notices a session gathered while it opened (or since last shown), said once. */
export function showNotices(handle: SessionHandle, transcript: TranscriptModel): void {
  for (const notice of handle.notices.splice(0)) transcript.addNotice(notice, "warning");
}

/** Feeds the transcript what the current session reports while it lives, also while a prompt runs. */
export function useSessionFeeds(handle: SessionHandle | undefined, transcript: TranscriptModel): void {
  // MCP servers' warnings and errors appear as they come, dimmed.
  useEffect(() => {
    if (!handle) return;
    const show = () => {
      for (const line of handle.liveNotices.drain()) transcript.addNotice(line, "info");
    };
    show();
    return handle.liveNotices.subscribe(show);
  }, [handle, transcript]);
  useEffect(() => {
    if (!handle) return;
    const stopForeground = handle.engine.observeSubagents((id, event) => transcript.applySubagent(id, event, false));
    const stopBackground = handle.engine.observeBackgroundSubagents((id, event) =>
      transcript.applySubagent(id, event, true),
    );
    return () => {
      stopForeground();
      stopBackground();
    };
  }, [handle, transcript]);
}
