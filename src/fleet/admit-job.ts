// The worker's gate for a job taken from the queue: its signature (made with the fleet's job key),
// its shape, and the worker's own policy. A job that fails any of them never starts a session:
// its state becomes failed, with the reason, in BullMQ's record and in the job's events.
import { type Job, UnrecoverableError } from "bullmq";
import type { Redis } from "ioredis";
import { isFleetJobId, shownJobId } from "./job-id.js";
import { signatureProblem, splitSignature } from "./job-signature.js";
import { type JobSpec, parseJobSpec } from "./job-spec.js";
import { keys } from "./keys.js";
import type { WorkerPolicy } from "./worker-policy.js";

export interface AdmittedJob {
  /** The spec to run (the policy may have left out rules that only reached outside the workspace). */
  spec: JobSpec;
  notes: string[];
}

export interface AdmissionContext {
  redis: Redis;
  workerId: string;
  policy: WorkerPolicy;
  jobKey: Buffer;
}

export async function admitJob(ctx: AdmissionContext, job: Job, id: string): Promise<AdmittedJob> {
  if (!isFleetJobId(id)) {
    return refuse(
      ctx,
      id,
      `its id ${shownJobId(id)} is not one the fleet makes (letters, digits and ":_.-"; submit names jobs itself)`,
    );
  }
  const { fields, signature } = splitSignature(job.data);
  let spec: JobSpec;
  try {
    spec = parseJobSpec(fields, `job ${id}`);
  } catch (error) {
    return refuse(ctx, id, error instanceof Error ? error.message : String(error));
  }
  const forged = signatureProblem(spec, signature, ctx.jobKey);
  if (forged) return refuse(ctx, id, forged);
  const decision = ctx.policy.check(spec);
  if (decision.refusal) return refuse(ctx, id, `this worker's policy does not allow it: ${decision.refusal}`);
  return { spec: decision.spec, notes: decision.notes };
}

async function refuse(ctx: AdmissionContext, id: string, reason: string): Promise<never> {
  const line = JSON.stringify({ type: "fleet", event: "refused", worker: ctx.workerId, reason });
  await ctx.redis
    .multi()
    .hset(keys.job(id), "refused", reason, "worker", ctx.workerId, "finishedAt", new Date().toISOString())
    .xadd(keys.events(id), "*", "line", line)
    .xadd(
      keys.events(id),
      "*",
      "line",
      JSON.stringify({ type: "fleet", event: "end", state: "failed" }),
      "end",
      "failed",
    )
    .exec();
  // Unrecoverable: no retry would make it acceptable. BullMQ records the reason as the job's error.
  throw new UnrecoverableError(`refused by worker ${ctx.workerId}: ${reason}`);
}
