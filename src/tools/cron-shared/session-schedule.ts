// The session's schedule as a tool call reaches it: the one in AppState, or a new one made on the
// first CronCreate, whose due prompts are queued as user messages of this session.
import type { UserMessage } from "../../messages/types.js";
import type { CronSchedule } from "../../tool/cron.js";
import type { ToolUseContext } from "../../tool/types.js";
import type { CronClock } from "./clock.js";
import type { CronScheduler } from "./scheduler.js";

type Store = Pick<ToolUseContext, "getAppState" | "setAppState" | "channels">;

/**
 * A schedule whose due prompts go into this store's queue of user messages. Loaded on first use:
 * the scheduler and its file store are not part of a session's start-up.
 */
export async function createSessionSchedule(store: Store, cwd: string, clock?: CronClock): Promise<CronScheduler> {
  const { CronScheduler } = await import("./scheduler.js");
  return new CronScheduler({
    cwd,
    clock,
    deliver: (message: UserMessage) => {
      store.channels.userMessages.send(message);
      store.channels.wake.raise();
    },
  });
}

export async function scheduleOf(context: ToolUseContext): Promise<CronSchedule> {
  const existing = context.getAppState().cron;
  if (existing) return existing;
  const schedule = await createSessionSchedule(context, context.options.cwd);
  context.setAppState((prev) => ({ ...prev, cron: prev.cron ?? schedule }));
  return context.getAppState().cron ?? schedule;
}

export function describeTask(task: {
  id: string;
  cron: string;
  recurring: boolean;
  durable: boolean;
  onFleet?: boolean;
  nextRunAt?: string;
  prompt: string;
}): string {
  const kind = `${task.recurring ? "recurring" : "once"}${task.durable ? ", durable" : ""}${task.onFleet ? ", a fleet job" : ""}`;
  const next = task.nextRunAt ? `next ${new Date(task.nextRunAt).toString()}` : "done";
  const prompt = task.prompt.length > 80 ? `${task.prompt.slice(0, 79)}…` : task.prompt;
  return `${task.id}  "${task.cron}" (${kind}; ${next}): ${prompt}`;
}
