// Scheduled prompts (CronCreate, CronDelete, CronList; src/tools/cron-shared/): the session's
// schedule as the tools and the session see it. AppState.cron holds it once a task exists (or a
// durable one was re-armed at start); a task that comes due queues its prompt as a user message.

export interface ScheduledTask {
  /** Short id the model passes to CronDelete. */
  id: string;
  /** Five fields, local time: minute hour day-of-month month day-of-week. */
  cron: string;
  prompt: string;
  /** true: runs at every match; false: once, at the next match, then removed. */
  recurring: boolean;
  /** Saved in the project's .warden/scheduled_tasks.json and re-armed when a session starts there. */
  durable: boolean;
  /** ISO times. */
  createdAt: string;
  /** A durable task kept on the fleet's queue (a repeatable job) rather than in the project's file. */
  onFleet?: boolean;
  /** When it runs next (undefined once a one-shot task has run). */
  nextRunAt?: string;
}

export interface NewScheduledTask {
  cron: string;
  prompt: string;
  recurring: boolean;
  durable: boolean;
}

/** The session's schedule. */
export interface CronSchedule {
  list(): ScheduledTask[];
  /** Arms the task (and saves it when durable); throws an Error with a message the model can act on. */
  create(task: NewScheduledTask): Promise<ScheduledTask>;
  /** Disarms and forgets it (and removes it from the file when durable); false when there is none. */
  delete(id: string): boolean;
  /** Stops every timer (the session ends); durable tasks stay saved. */
  close(): void;
}
