// Durable tasks when a fleet is configured: a repeatable job on the fleet's queue (BullMQ's job
// scheduler, src/fleet/schedules.ts) instead of the project's file. It fires whether or not any
// session runs: each match submits a session job that a worker runs headless in a fresh clone of
// this repository, with this session's model, mode and permission rules. Ids are the task's short
// id; the queue knows it as `cron:<id>`, and this project's tasks are those whose job runs here.
import { randomBytes } from "node:crypto";
import type { NewScheduledTask, ScheduledTask } from "../../tool/cron.js";
import type { FleetAccess, FleetSchedule } from "../../tool/fleet.js";
import type { ToolUseContext } from "../../tool/types.js";
import { repositoryOf, sessionRules } from "../fleet-shared/session-job.js";

const PREFIX = "cron:";

function taskOf(schedule: FleetSchedule): ScheduledTask {
  return {
    id: schedule.id.slice(PREFIX.length),
    cron: schedule.cron,
    prompt: schedule.job.prompt,
    recurring: schedule.recurring,
    durable: true,
    onFleet: true,
    createdAt: schedule.job.origin?.split("@")[1] ?? "",
    ...(schedule.nextRunAt !== undefined ? { nextRunAt: new Date(schedule.nextRunAt).toISOString() } : {}),
  };
}

export async function createFleetTask(
  fleet: FleetAccess,
  spec: NewScheduledTask,
  context: ToolUseContext,
): Promise<ScheduledTask> {
  const cwd = context.getAppState().bashCwd ?? context.options.cwd;
  const repo = await repositoryOf(cwd);
  if (!repo) {
    throw new Error(
      `A durable task runs on the fleet in a clone of this repository, and ${cwd} is not in a git repository; schedule it for this session (durable: false).`,
    );
  }
  const id = randomBytes(4).toString("hex");
  const mode = context.getAppState().toolPermissionContext.mode;
  const schedule = await fleet.upsertSchedule(
    {
      id: `${PREFIX}${id}`,
      cron: spec.cron.trim().split(/\s+/).join(" "),
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
      recurring: spec.recurring,
      job: {
        prompt: spec.prompt,
        repo,
        model: context.options.model,
        permissionMode: mode,
        ...sessionRules(context),
        origin: `${PREFIX}${id}@${new Date().toISOString()}`,
      },
    },
    context.options.cwd,
  );
  return taskOf(schedule);
}

/** This repository's durable tasks on the fleet. */
export async function listFleetTasks(fleet: FleetAccess, context: ToolUseContext): Promise<ScheduledTask[]> {
  const repo = await repositoryOf(context.getAppState().bashCwd ?? context.options.cwd);
  if (!repo) return [];
  const schedules = await fleet.listSchedules(PREFIX);
  return schedules.filter((schedule) => schedule.job.repo === repo).map(taskOf);
}

export async function deleteFleetTask(fleet: FleetAccess, id: string): Promise<boolean> {
  return fleet.removeSchedule(`${PREFIX}${id}`);
}
