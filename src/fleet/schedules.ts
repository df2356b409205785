// Repeatable jobs: BullMQ's job schedulers, each adding the same session job at every match of a
// cron pattern. Durable Cron tasks and scheduled triggers live here, so they fire whether or not
// the session (or machine) that created them still runs: the queue is in Redis, and any worker
// takes the job when it comes due.
import type { Queue } from "bullmq";
import type { FleetJobRequest, FleetSchedule } from "../tool/fleet.js";
import { type FleetClient, JOB_ATTEMPTS, jobBackoffMs } from "./client.js";
import { splitSignature } from "./job-signature.js";
import type { JobSpec } from "./job-spec.js";
import { removeAfterRetention } from "./keys.js";

/** What every scheduled job gets: the same retries as a submitted one, and kept for `results`. */
const templateOptions = () => ({
  attempts: JOB_ATTEMPTS,
  backoff: { type: "exponential", delay: jobBackoffMs() },
  ...removeAfterRetention(),
});

export async function upsertSchedule(
  client: FleetClient,
  schedule: Omit<FleetSchedule, "nextRunAt" | "job"> & { job: JobSpec },
): Promise<FleetSchedule> {
  const { queue } = client;
  // Signed once here: every job the scheduler adds carries the template's data, signature included.
  const data = client.signed(schedule.job);
  try {
    await queue.upsertJobScheduler(
      schedule.id,
      {
        pattern: schedule.cron,
        ...(schedule.tz ? { tz: schedule.tz } : {}),
        ...(schedule.recurring ? {} : { limit: 1 }),
      },
      { name: "session", data, opts: templateOptions() },
    );
  } catch (error) {
    throw new Error(`the fleet refused the schedule "${schedule.cron}": ${(error as Error).message}`);
  }
  const stored = await queue.getJobScheduler(schedule.id);
  return { ...schedule, ...(stored?.next !== undefined ? { nextRunAt: stored.next } : {}) };
}

export async function removeSchedule(queue: Queue, id: string): Promise<boolean> {
  return queue.removeJobScheduler(id);
}

export async function listSchedules(queue: Queue, prefix: string): Promise<FleetSchedule[]> {
  const all = await queue.getJobSchedulers(0, -1, true);
  const schedules: FleetSchedule[] = [];
  for (const scheduler of all) {
    const id = scheduler.id ?? scheduler.key;
    if (!id.startsWith(prefix) || !scheduler.pattern) continue;
    const job = splitSignature(scheduler.template?.data ?? { prompt: "" }).fields as FleetJobRequest;
    schedules.push({
      id,
      cron: scheduler.pattern,
      ...(scheduler.tz ? { tz: scheduler.tz } : {}),
      recurring: scheduler.limit !== 1,
      job,
      ...(scheduler.next !== undefined ? { nextRunAt: scheduler.next } : {}),
    });
  }
  return schedules;
}
