// A foreground command run inline replaces bash with its last program (exec), so when that one
// dies of a signal (a crash, an outside kill) the process we watch dies of it too, where bash
// waiting on it used to report 128 + the signal number. The model keeps seeing bash's convention.
import { constants } from "node:os";

export interface ShellEnd {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** We sent the signal ourselves (timeout or abort): that ending is reported as such. */
  stoppedByUs: boolean;
}

/** The exit status bash would have reported, and a note when it was derived from a signal. */
export function shellExitStatus(end: ShellEnd): { exitCode: number | null; note?: string } {
  if (end.exitCode !== null || !end.signal || end.stoppedByUs) return { exitCode: end.exitCode };
  const number = constants.signals[end.signal];
  if (number === undefined) return { exitCode: null };
  return { exitCode: 128 + number, note: `The command was ended by signal ${end.signal}.` };
}
