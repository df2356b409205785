// RemoteTrigger's store: a trigger is a named job template kept in Redis (one hash field each),
// run on demand (`run` submits its job) and, when it has a cron pattern and is enabled, by the
// queue itself as a repeatable job (schedules.ts). Every worker and every session of the fleet
// sees the same triggers.
import { randomBytes } from "node:crypto";
import type { FleetTrigger, FleetTriggerChange } from "../tool/fleet.js";
import type { FleetClient } from "./client.js";
import type { JobSpec } from "./job-spec.js";
import { keys } from "./keys.js";
import { FleetUsageError } from "./redis.js";
import { removeSchedule, upsertSchedule } from "./schedules.js";

type SpecOf = (job: FleetTrigger["job"], cwd: string) => JobSpec;
type NewTrigger = Pick<FleetTrigger, "name" | "job" | "cron" | "tz" | "enabled">;
type TriggerChange = FleetTriggerChange;

export const triggerScheduleId = (id: string) => `trigger:${id}`;

export class TriggerStore {
  constructor(
    private readonly client: FleetClient,
    private readonly specOf: SpecOf,
    private readonly submit: (spec: JobSpec) => Promise<string>,
  ) {}

  async list(): Promise<FleetTrigger[]> {
    const raw = await this.client.call(() => this.client.redis.hvals(keys.triggers));
    const triggers = raw.map((text) => JSON.parse(text) as FleetTrigger);
    const withNext = await Promise.all(triggers.map((trigger) => this.withNextRun(trigger)));
    return withNext.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async get(id: string): Promise<FleetTrigger | undefined> {
    const raw = await this.client.call(() => this.client.redis.hget(keys.triggers, id));
    return raw ? this.withNextRun(JSON.parse(raw) as FleetTrigger) : undefined;
  }

  async create(input: NewTrigger, cwd: string): Promise<FleetTrigger> {
    const now = new Date().toISOString();
    const id = `trg_${randomBytes(5).toString("hex")}`;
    const trigger: FleetTrigger = {
      id,
      name: input.name,
      job: this.specOf({ ...input.job, origin: `trigger:${id}` }, cwd),
      enabled: input.enabled,
      createdAt: now,
      updatedAt: now,
      ...(input.cron ? { cron: input.cron } : {}),
      ...(input.tz ? { tz: input.tz } : {}),
    };
    await this.schedule(trigger);
    await this.save(trigger);
    return this.withNextRun(trigger);
  }

  async update(id: string, change: TriggerChange, cwd: string): Promise<FleetTrigger> {
    const current = await this.get(id);
    if (!current) throw new FleetUsageError(`no trigger ${id} (RemoteTrigger list shows them)`);
    const { nextRunAt: _next, cron: oldCron, ...rest } = current;
    const cron = change.cron === null ? undefined : (change.cron ?? oldCron);
    const next: FleetTrigger = {
      ...rest,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      ...(change.tz !== undefined ? { tz: change.tz } : {}),
      ...(change.job !== undefined
        ? { job: this.specOf({ ...current.job, ...change.job, origin: `trigger:${id}` }, cwd) }
        : {}),
      ...(cron ? { cron } : {}),
      updatedAt: new Date().toISOString(),
    };
    await this.schedule(next);
    await this.save(next);
    return this.withNextRun(next);
  }

  async run(id: string, cwd: string): Promise<string> {
    const trigger = await this.get(id);
    if (!trigger) throw new FleetUsageError(`no trigger ${id} (RemoteTrigger list shows them)`);
    // Checked again: the submitter's settings may have changed since the trigger was made.
    const jobId = await this.submit(this.specOf(trigger.job, cwd));
    const { nextRunAt: _next, ...stored } = trigger;
    await this.save({ ...stored, lastRunAt: new Date().toISOString(), lastJobId: jobId });
    return jobId;
  }

  /** An enabled trigger with a pattern has a repeatable job; any other has none. */
  private async schedule(trigger: FleetTrigger): Promise<void> {
    const scheduleId = triggerScheduleId(trigger.id);
    if (trigger.enabled && trigger.cron) {
      await upsertSchedule(this.client, {
        id: scheduleId,
        cron: trigger.cron,
        recurring: true,
        job: trigger.job as JobSpec,
        ...(trigger.tz ? { tz: trigger.tz } : {}),
      });
    } else {
      await removeSchedule(this.client.queue, scheduleId);
    }
  }

  private async save(trigger: FleetTrigger): Promise<void> {
    const { nextRunAt: _next, ...stored } = trigger;
    await this.client.call(() => this.client.redis.hset(keys.triggers, trigger.id, JSON.stringify(stored)));
  }

  private async withNextRun(trigger: FleetTrigger): Promise<FleetTrigger> {
    if (!trigger.enabled || !trigger.cron) return trigger;
    const scheduler = await this.client.queue.getJobScheduler(triggerScheduleId(trigger.id));
    return scheduler?.next !== undefined ? { ...trigger, nextRunAt: scheduler.next } : trigger;
  }
}
