// Cron expressions, parsed by croner (loaded on first use: only sessions that schedule pay for
// it). Five fields in local time; croner also takes a seconds field and nicknames, which we refuse
// so that what the model writes means the same everywhere it is read.

export interface CronPattern {
  /** The next match strictly after `after`, or undefined when there is none. */
  nextAfter(after: Date): Date | undefined;
}

export async function parseCron(expression: string): Promise<CronPattern> {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw new Error(
      `"${expression}" has ${fields.length} field(s); a cron expression here has 5: minute hour day-of-month month day-of-week (e.g. "*/15 9-17 * * 1-5")`,
    );
  }
  const { Cron } = await import("croner");
  let pattern: InstanceType<typeof Cron>;
  try {
    // Paused: croner only computes times here; our own timers fire the tasks.
    pattern = new Cron(fields.join(" "), { paused: true });
  } catch (error) {
    throw new Error(
      `"${expression}" is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { nextAfter: (after) => pattern.nextRun(after) ?? undefined };
}
