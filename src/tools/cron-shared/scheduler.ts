// One session's schedule: each task armed with a timer for its next match (computed by croner, run
// by our clock so tests can move time), and, when due, its prompt queued as a user message of the
// session: the running prompt's next request takes it, or the next prompt starts with it (Sleep
// wakes for it). Recurring tasks are armed again from the time they fired; one-shot tasks are then
// removed. Durable tasks are also kept in the project's file (./durable-store.ts).
import { randomBytes } from "node:crypto";
import type { UserMessage } from "../../messages/types.js";
import type { CronSchedule, NewScheduledTask, ScheduledTask } from "../../tool/cron.js";
import { type CronClock, realClock } from "./clock.js";
import { removeDurableTask, saveDurableTask } from "./durable-store.js";
import { type CronPattern, parseCron } from "./expression.js";

/** Tasks one session may hold (its own and re-armed durable ones). */
export const MAX_SCHEDULED_TASKS = 50;
/** setTimeout's ceiling (about 24.8 days): a later run is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CronSchedulerOptions {
  cwd: string;
  /** Queues a user message in the session (its userMessages channel). */
  deliver(message: UserMessage, task: ScheduledTask): void;
  clock?: CronClock;
}

interface Armed {
  task: ScheduledTask;
  pattern: CronPattern;
  timer?: unknown;
}

export class CronScheduler implements CronSchedule {
  private readonly armed = new Map<string, Armed>();
  private readonly clock: CronClock;
  private closed = false;

  constructor(private readonly options: CronSchedulerOptions) {
    this.clock = options.clock ?? realClock;
  }

  list(): ScheduledTask[] {
    return [...this.armed.values()].map((entry) => ({ ...entry.task }));
  }

  async create(spec: NewScheduledTask): Promise<ScheduledTask> {
    if (this.armed.size >= MAX_SCHEDULED_TASKS) {
      throw new Error(
        `This session already has ${MAX_SCHEDULED_TASKS} scheduled tasks; delete one with CronDelete first.`,
      );
    }
    const pattern = await parseCron(spec.cron);
    const now = new Date(this.clock.now());
    const next = pattern.nextAfter(now);
    if (!next) throw new Error(`"${spec.cron}" never matches a future time.`);
    const task: ScheduledTask = {
      id: randomBytes(4).toString("hex"),
      cron: spec.cron.trim().split(/\s+/).join(" "),
      prompt: spec.prompt,
      recurring: spec.recurring,
      durable: spec.durable,
      createdAt: now.toISOString(),
      nextRunAt: next.toISOString(),
    };
    if (task.durable) saveDurableTask(this.options.cwd, task);
    this.arm({ task, pattern });
    return { ...task };
  }

  /**
   * Re-arms durable tasks read at session start. A recurring one runs at its next match from now
   * (runs missed while no session was open are not made up); a one-shot whose time passed runs now.
   */
  async rearm(tasks: readonly ScheduledTask[]): Promise<string[]> {
    const warnings: string[] = [];
    for (const task of tasks) {
      if (this.armed.size >= MAX_SCHEDULED_TASKS) {
        warnings.push(`task ${task.id} is not scheduled: the session already has ${MAX_SCHEDULED_TASKS}`);
        continue;
      }
      try {
        const pattern = await parseCron(task.cron);
        const now = new Date(this.clock.now());
        const missed = !task.recurring && task.nextRunAt !== undefined && Date.parse(task.nextRunAt) <= now.getTime();
        const next = missed ? now : pattern.nextAfter(now);
        if (!next) continue;
        this.arm({ task: { ...task, durable: true, nextRunAt: next.toISOString() }, pattern });
      } catch (error) {
        warnings.push(`task ${task.id} is not scheduled: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return warnings;
  }

  delete(id: string): boolean {
    const entry = this.armed.get(id);
    if (!entry) return false;
    if (entry.timer !== undefined) this.clock.clearTimer(entry.timer);
    this.armed.delete(id);
    if (entry.task.durable) removeDurableTask(this.options.cwd, id);
    return true;
  }

  close(): void {
    this.closed = true;
    for (const entry of this.armed.values()) if (entry.timer !== undefined) this.clock.clearTimer(entry.timer);
  }

  private arm(entry: Armed): void {
    if (this.closed || entry.task.nextRunAt === undefined) return;
    this.armed.set(entry.task.id, entry);
    const due = Date.parse(entry.task.nextRunAt);
    const wait = Math.max(0, due - this.clock.now());
    entry.timer = this.clock.setTimer(
      () => {
        // A timer capped below a far run only steps closer.
        if (this.clock.now() < due) this.arm(entry);
        else this.fire(entry);
      },
      Math.min(wait, MAX_TIMER_MS),
    );
  }

  private fire(entry: Armed): void {
    if (this.armed.get(entry.task.id) !== entry) return; // deleted meanwhile
    const { task } = entry;
    this.options.deliver({ role: "user", content: [{ type: "text", text: task.prompt }] }, { ...task });
    if (!task.recurring) {
      this.delete(task.id);
      return;
    }
    const next = entry.pattern.nextAfter(new Date(Math.max(this.clock.now(), Date.parse(task.nextRunAt ?? "0"))));
    if (!next) {
      this.delete(task.id);
      return;
    }
    this.arm({ ...entry, task: { ...task, nextRunAt: next.toISOString() } });
  }
}
