// A foreground `sleep 30` blocks the whole turn while teaching the model nothing; it is almost
// always a wait for something that a background run or a short poll does better.
const LEADING_SLEEP = /^\s*sleep\s+(\d+(?:\.\d+)?)(s?)\s*(?:$|;|&&|\|\||\n)/;

/** Returns a description of the blocked pattern, or undefined when the command may run. */
export function detectBlockedSleep(command: string): string | undefined {
  const match = LEADING_SLEEP.exec(command);
  if (!match) return undefined;
  const seconds = Number(match[1]);
  if (seconds < 2) return undefined;
  const rest = command.slice(match[0].length).trim();
  return rest ? `sleep ${match[1]} followed by: ${rest}` : `standalone sleep ${match[1]}`;
}

export function blockedSleepMessage(pattern: string): string {
  return (
    `Blocked: ${pattern}. Do not start a command with a sleep of 2 seconds or more. ` +
    "To run something long (a server, a watcher, a slow build), use run_in_background: true; you will be told when it finishes and can read its output with TaskOutput. " +
    "To wait for a condition, poll it with a short check (e.g. `until curl -sf localhost:3000; do sleep 1; done` with a timeout) instead of a fixed delay. " +
    "If you truly need a pause, keep it under 2 seconds."
  );
}
