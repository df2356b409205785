// The session's own keys, those the prompt does not use: Esc interrupts what runs, Shift+Tab
// cycles the mode, Ctrl+D on an empty prompt exits, Ctrl+B sends running commands to the
// background, and Ctrl+C interrupts and, pressed again within two seconds, exits.
import type { SessionEngine } from "../../loop/session.js";
import type { KeyName } from "../input/keys.js";
import type { TranscriptModel } from "../transcript/transcript-model.js";

export const EXIT_CONFIRM_MS = 2000;

export interface SessionKeyContext {
  /** A prompt (or a `!command`, a compaction) runs. */
  busy: boolean;
  /** Undefined while the session starts. */
  engine: SessionEngine | undefined;
  /** Stops what runs beside the model (a `!command`, the Reads of `@file` mentions). */
  sideAbort: AbortController | undefined;
  cycleMode(): void;
  exit(): void;
  transcript: TranscriptModel;
  /** When Ctrl+C was last pressed (ms). */
  ctrlCAt: { current: number };
  setHint(hint: string | undefined): void;
}

export function handleSessionKey(name: KeyName, promptIsEmpty: boolean, keys: SessionKeyContext): void {
  if (name === "escape") {
    if (keys.busy) keys.engine?.abort("user");
    keys.sideAbort?.abort();
    return;
  }
  if (name === "shiftTab") {
    keys.cycleMode();
    return;
  }
  if (name === "ctrlD" && promptIsEmpty) {
    keys.exit();
    return;
  }
  if (name === "ctrlB") {
    const moved = keys.engine?.getAppState().foregroundCommands?.moveAllToBackground() ?? 0;
    keys.transcript.addNotice(
      moved > 0
        ? `Moved ${moved === 1 ? "the running command" : `${moved} running commands`} to the background.`
        : "No command is running in the foreground.",
    );
    return;
  }
  if (name === "ctrlC") {
    if (keys.busy) keys.engine?.abort("user");
    const at = Date.now();
    if (at - keys.ctrlCAt.current < EXIT_CONFIRM_MS) {
      keys.exit();
      return;
    }
    keys.ctrlCAt.current = at;
    keys.setHint("Press Ctrl+C again to exit");
    setTimeout(() => keys.setHint(undefined), EXIT_CONFIRM_MS);
  }
}
