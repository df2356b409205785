// The session's own keys, those the prompt does not use: Esc interrupts what runs, Shift+Tab
// cycles the mode, Ctrl+D on an empty prompt exits, Ctrl+B sends running commands to the
// background, and Ctrl+C interrupts and, pressed again within two seconds, exits (idle, on a
// draft, it only clears the prompt).
import type { SessionCommands } from "../../control/session-commands.js";
import type { SessionEngine } from "../../loop/session.js";
import type { KeyName } from "../input/keys.js";
import type { TranscriptModel } from "../transcript/transcript-model.js";

export const EXIT_CONFIRM_MS = 2000;

export interface SessionKeyContext {
  /** A prompt (or a `!command`, a compaction) runs. */
  busy: boolean;
  /** Undefined while the session starts. */
  engine: SessionEngine | undefined;
  /** How the keys change the session (interrupt, commands to the background); undefined while it starts. */
  commands: SessionCommands | undefined;
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
    if (keys.busy) keys.commands?.interrupt("user");
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
    keys.transcript.addNotice(sendCommandsToBackground(keys));
    return;
  }
  if (name === "ctrlC") {
    // Idle with a draft, Ctrl+C only cleared the prompt: a second one must not exit.
    if (!keys.busy && !promptIsEmpty) return;
    if (keys.busy) keys.commands?.interrupt("user");
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

/**
 * Ctrl+B: the running foreground commands go to the background now; the Bash calls whose command
 * has not started yet (their checks still run, e.g. the shell grammar loading) go as they start.
 * Returns what the person is told.
 */
function sendCommandsToBackground(keys: SessionKeyContext): string {
  const engine = keys.engine;
  if (!engine) return "No command is running in the foreground.";
  const moved = engine.getAppState().foregroundCommands?.moveAllToBackground() ?? 0;
  // Every Bash call drawn and not finished: one just moved never starts again, so marking it is harmless.
  const calls = [...keys.transcript.running.values()].filter(
    (tool) => tool.use.name === "Bash" && tool.use.input.run_in_background !== true,
  );
  if (calls.length > moved) keys.commands?.backgroundWhenStarted(calls.map((tool) => tool.use.id));
  if (moved > 0) return `Moved ${moved === 1 ? "the running command" : `${moved} running commands`} to the background.`;
  if (calls.length > 0) {
    return `${calls.length === 1 ? "The command has" : "The commands have"} not started yet (the checks still run): it goes to the background as soon as it starts.`;
  }
  return "No command is running in the foreground.";
}
