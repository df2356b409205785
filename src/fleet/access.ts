// The fleet as a session's tools reach it (tool/fleet.ts's FleetAccess): submit a job and wait
// for it (Agent isolation "remote"), triggers (RemoteTrigger) and repeatable jobs (durable Cron).
// Loaded by the CLI on the first call of such a tool, so a session that never uses the fleet never
// loads BullMQ or ioredis, and opens no connection.
import type { Redis } from "ioredis";
import type { FleetAccess, FleetJobOutcome, FleetJobRequest } from "../tool/fleet.js";
import { FleetClient } from "./client.js";
import { type JobSpec, parseJobSpec } from "./job-spec.js";
import { keys, TERMINAL_STATES } from "./keys.js";
import { displayUrl, FleetNoSuchJobError } from "./redis.js";
import { listSchedules, removeSchedule, upsertSchedule } from "./schedules.js";
import { checkSubmitPolicy } from "./submit-policy.js";
import { TriggerStore } from "./triggers.js";

export interface FleetAccessOptions {
  url: string;
  /** Where outage notices go (the session's warnings). */
  report: (line: string) => void;
}

export function createFleetAccess(options: FleetAccessOptions): FleetAccess & { close(): Promise<void> } {
  const client = new FleetClient({ url: options.url, report: options.report });
  const specOf = (job: FleetJobRequest, cwd: string): JobSpec => {
    const spec = parseJobSpec(stripUndefined(job), "fleet job");
    checkSubmitPolicy([spec], cwd);
    return spec;
  };
  const submitSpec = async (spec: JobSpec) => {
    const [id] = await client.submit([spec]);
    if (id === undefined) throw new Error("the queue returned no job id");
    return id;
  };
  const triggers = new TriggerStore(client, specOf, submitSpec);
  return {
    url: displayUrl(options.url),
    submit: (job, cwd) => submitSpec(specOf(job, cwd)),
    wait: (id, signal, onEvent) => waitForJob(client, id, signal, onEvent),
    listTriggers: () => triggers.list(),
    getTrigger: (id) => triggers.get(id),
    createTrigger: (trigger, cwd) => triggers.create(trigger, cwd),
    updateTrigger: (id, change, cwd) => triggers.update(id, change, cwd),
    runTrigger: (id, cwd) => triggers.run(id, cwd),
    upsertSchedule: (schedule, cwd) => upsertSchedule(client, { ...schedule, job: specOf(schedule.job, cwd) }),
    removeSchedule: (id) => removeSchedule(client.queue, id),
    listSchedules: (prefix) => listSchedules(client.queue, prefix),
    close: () => client.close(),
  };
}

/**
 * Follows the job's event stream on a connection of its own (XREAD BLOCK holds it) until the end
 * line, or until the job is over without one (its last retry crashed). Aborting cancels the job.
 */
async function waitForJob(
  client: FleetClient,
  id: string,
  signal: AbortSignal,
  onEvent?: (line: string) => void,
): Promise<FleetJobOutcome> {
  const reader: Redis = client.redis.duplicate();
  reader.on("error", () => undefined);
  let cancelling: Promise<unknown> | undefined;
  const cancel = () => {
    cancelling ??= client.cancel(id).catch(() => undefined);
  };
  if (signal.aborted) cancel();
  else signal.addEventListener("abort", cancel, { once: true });
  try {
    let last = "0-0";
    for (;;) {
      const read = await client.call(() => reader.xread("COUNT", 500, "BLOCK", 500, "STREAMS", keys.events(id), last));
      let ended = false;
      for (const [entryId, fields] of read?.[0]?.[1] ?? []) {
        last = entryId;
        const line = fieldOf(fields, "line");
        if (line !== undefined) onEvent?.(line);
        if (fieldOf(fields, "end") !== undefined) ended = true;
      }
      if (ended) break;
      const status = await client.status(id);
      if (!status) throw new FleetNoSuchJobError(`no fleet job ${id}`);
      if (TERMINAL_STATES.has(status.state)) break;
    }
    await cancelling;
    return await outcomeOf(client, id);
  } finally {
    signal.removeEventListener("abort", cancel);
    reader.disconnect();
  }
}

async function outcomeOf(client: FleetClient, id: string): Promise<FleetJobOutcome> {
  const result = await client.result(id);
  if (!result) throw new FleetNoSuchJobError(`no fleet job ${id}`);
  const line = result.result ?? {};
  const usage = (line.usage ?? {}) as { input_tokens?: number; output_tokens?: number };
  const state = result.state === "completed" ? "completed" : result.state === "cancelled" ? "cancelled" : "failed";
  const transcript = await client.call(() => client.redis.lrange(keys.transcript(id), 0, -1));
  const outcome: FleetJobOutcome = {
    id,
    state,
    text: typeof line.result === "string" ? line.result : "",
    turns: typeof line.num_turns === "number" ? line.num_turns : 0,
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    transcript,
  };
  if (state !== "completed") {
    outcome.error =
      state === "cancelled"
        ? "cancelled"
        : (result.error ?? (typeof line.subtype === "string" ? line.subtype : "failed"));
  }
  if (result.worker) outcome.worker = result.worker;
  if (result.diffstat) outcome.diffstat = result.diffstat;
  if (result.patch) outcome.patch = result.patch;
  if (result.refusals) outcome.refusals = result.refusals;
  return outcome;
}

function fieldOf(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

/** A tool's request may carry `undefined` fields; the job's schema is strict about what is there. */
function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
