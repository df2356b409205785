// Durable tasks come back when a session starts in their project: the tasks of
// .warden/scheduled_tasks.json that this user created are armed on the session's schedule. Called
// by the CLI (and a library) after creating the session, only when the file exists, so a session
// without one never loads croner.
import { existsSync } from "node:fs";
import type { ToolUseContext } from "../../tool/types.js";
import type { CronClock } from "./clock.js";
import { durableTasksFile, loadOwnedTasks } from "./durable-store.js";
import { CronScheduler } from "./scheduler.js";
import { createSessionSchedule } from "./session-schedule.js";

/** Returns what could not be re-armed, for the user (never throws for a bad file: it is reported). */
export async function armDurableTasks(
  store: Pick<ToolUseContext, "getAppState" | "setAppState" | "channels">,
  cwd: string,
  clock?: CronClock,
): Promise<string[]> {
  if (!existsSync(durableTasksFile(cwd))) return [];
  let loaded: ReturnType<typeof loadOwnedTasks>;
  try {
    loaded = loadOwnedTasks(cwd);
  } catch (error) {
    return [`scheduled tasks were not re-armed: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (loaded.tasks.length === 0) return loaded.warnings;
  const existing = store.getAppState().cron;
  const schedule = existing instanceof CronScheduler ? existing : await createSessionSchedule(store, cwd, clock);
  if (existing && existing !== schedule) return [...loaded.warnings, "the session already has a schedule of its own"];
  const warnings = await schedule.rearm(loaded.tasks);
  store.setAppState((prev) => ({ ...prev, cron: prev.cron ?? schedule }));
  return [...loaded.warnings, ...warnings];
}
