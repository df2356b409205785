// What a worker does with one job: its own clone, the session as a child process, every event
// into the job's Redis stream, the transcript and the workspace mirrored at each turn, and the
// result recorded once. A job that already has a transcript in Redis was started by a worker that
// died (or lost its lock): the transcript and the files of its last completed turn are put back
// and the session resumed, so the interrupted call is recorded as interrupted, as a local
// `--resume` records it, and nothing that completed runs again.
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Redis } from "ioredis";
import { transcriptPath } from "../config/paths.js";
import { isValidSessionId } from "../session/transcript-reader.js";
import { admitJob } from "./admit-job.js";
import { sessionBaseEnv } from "./child-env.js";
import { type JobSessionArgs, startChildSession } from "./child-session.js";
import { type JobSpec, providerOf } from "./job-spec.js";
import { expireJob, keys } from "./keys.js";
import { slotRetryDelayMs, tryAcquireSlot } from "./provider-slots.js";
import { RefusalCollector } from "./refusals.js";
import { ownedSet, restoreTranscript, TranscriptMirror } from "./transcript-mirror.js";
import type { WarmSessions } from "./warm-sessions.js";
import type { WorkerPolicy } from "./worker-policy.js";
import { applyPatch, patchStat, prepareWorkspace, type Workspace, workspacePatch } from "./workspace.js";

export interface WorkerContext {
  redis: Redis;
  workerId: string;
  /** Where jobs' clones live on this worker. */
  workRoot: string;
  /** The `warden` command (node and the CLI script). */
  command: readonly string[];
  /** A job's run as the command's arguments (its SessionSpec, serialised by the CLI). */
  sessionArgs: JobSessionArgs;
  report: (line: string) => void;
  /** Session processes started ahead of the jobs (absent: each job starts its own). */
  warm?: WarmSessions;
  /** What this worker lets a job do, and the key its jobs must be signed with (admit-job.ts). */
  policy: WorkerPolicy;
  jobKey: Buffer;
}

/** What BullMQ keeps as the job's return value (the full result is in the job's hash). */
export interface JobOutcome {
  sessionId?: string;
  subtype: string;
  result: string;
  /** How many of the session's calls were refused (they are listed in the job's `refusals`). */
  refusedCalls?: number;
}

/** What the resumed session is told: the task goes on, on another machine, from its transcript. */
export const TAKEOVER_PROMPT =
  "This session ran as a fleet job and the worker running it stopped. It continues on another worker, in a fresh checkout holding the changes of the last completed turn. Carry on with the task from where the conversation stops.";

const EVENTS_MAX = 100_000;

/** The end of a cancelled job: not retried, and its worker says cancelled, not failed. */
export class JobCancelledError extends UnrecoverableError {
  constructor() {
    super("cancelled");
  }
}
const CANCEL_POLL_MS = 300;

/** The job's commit: only the owner records it, and only once (no job runs twice to completion). */
const FINISH = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
if redis.call('HGET', KEYS[1], 'outcome') then return 0 end
redis.call('HSET', KEYS[1], 'outcome', ARGV[2], 'result', ARGV[3], 'diffstat', ARGV[4], 'finishedAt', ARGV[5], 'finishedBy', ARGV[6])
redis.call('SET', KEYS[2], ARGV[7])
return 1`;

export async function processJob(ctx: WorkerContext, job: Job, token: string | undefined): Promise<JobOutcome> {
  const id = job.id;
  if (id === undefined) throw new UnrecoverableError("a job without an id");
  const { redis } = ctx;
  // A job a schedule added (a trigger's, a durable Cron task's) was never listed by submit.
  await redis
    .multi()
    .zadd(keys.allJobs, "NX", job.timestamp * 1_000, id)
    .hsetnx(keys.job(id), "submittedAt", new Date(job.timestamp).toISOString())
    .exec();
  const { spec, notes } = await admitJob(ctx, job, id);
  const known = await redis.hgetall(keys.job(id));
  if (known.sessionId !== undefined && !isValidSessionId(known.sessionId)) {
    // The record is Redis's, not the signed job's: a session id names the transcript file written
    // from Redis before resuming, so one that walks out of the transcript folder is never used.
    throw new UnrecoverableError(
      `job ${id}'s record names a session ${JSON.stringify(known.sessionId.slice(0, 200))} no session makes (its transcript would be written outside the transcript folder); not resuming it`,
    );
  }
  if (known.outcome === "completed") {
    // Finished by another worker whose acknowledgement to BullMQ was lost: never run it again.
    return JSON.parse(known.outcomeSummary ?? '{"subtype":"success","result":""}') as JobOutcome;
  }
  if (known.cancel) {
    await redis.hset(keys.job(id), "outcome", "cancelled", "finishedAt", new Date().toISOString());
    await endEvents(redis, id, "cancelled");
    throw new JobCancelledError();
  }
  const slot = await tryAcquireSlot(redis, providerOf(spec), id);
  if (!slot) {
    // The fleet runs as many sessions of this provider as it may: try again a little later.
    await job.moveToDelayed(Date.now() + slotRetryDelayMs(), token);
    throw new DelayedError();
  }
  try {
    return await runSession(ctx, id, spec, known.sessionId, notes);
  } finally {
    await slot.release();
  }
}

async function runSession(
  ctx: WorkerContext,
  id: string,
  spec: JobSpec,
  earlierSessionId: string | undefined,
  policyNotes: readonly string[],
): Promise<JobOutcome> {
  const { redis } = ctx;
  const startedAt = performance.now();
  const owner = `${ctx.workerId}:${randomUUID()}`;
  const run = await redis.hincrby(keys.job(id), "runs", 1);
  await redis.hset(keys.job(id), "owner", owner, "worker", ctx.workerId, "startedAt", new Date().toISOString());
  const jobDir = join(ctx.workRoot, `job-${id}-${run}`);
  const cwd = join(jobDir, "repo");
  // Private to the worker's user, as the work folder is.
  mkdirSync(jobDir, { recursive: true, mode: 0o700 });
  const workspace = await prepareWorkspace(cwd, spec.repo, jobDir);

  let resume: string | undefined;
  if (earlierSessionId) {
    const restored = await restoreTranscript(redis, id, transcriptPath(cwd, earlierSessionId));
    if (restored > 0) {
      resume = earlierSessionId;
      const patch = await redis.getBuffer(keys.workspace(id));
      if (patch && patch.length > 0) {
        const file = join(jobDir, "takeover.patch");
        writeFileSync(file, patch);
        await applyPatch(cwd, file);
      }
    }
  }
  // The session may have ended on the worker that lost the job, after its answer but before the
  // result was recorded: its result line is then the job's, and the session is not run again.
  const answered = resume ? await resultOfLastRun(redis, id) : undefined;
  const refusals = new RefusalCollector();
  if (answered) return finish(ctx, id, owner, answered, workspace, jobDir, refusals);

  addEvent(redis, id, {
    type: "fleet",
    event: resume ? "resumed" : "started",
    job_id: id,
    worker: ctx.workerId,
    run,
    ...(resume ? { session_id: resume } : {}),
    // Where a job's time goes besides its session: the clone and what a takeover puts back.
    prepare_ms: Math.round(performance.now() - startedAt),
  });
  for (const note of policyNotes) addEvent(redis, id, { type: "fleet", event: "policy", note });

  let mirror: TranscriptMirror | undefined;
  let snapshotting = Promise.resolve();
  let result: Record<string, unknown> | undefined;
  let cancelled = false;
  let lostOwnership = false;
  let stderrTail = "";
  const startMirror = (sessionId: string, fromStart: boolean) => {
    if (mirror) return;
    mirror = new TranscriptMirror({
      redis,
      jobId: id,
      owner,
      path: transcriptPath(cwd, sessionId),
      startAtBeginning: fromStart,
      onTurnRecorded: () => {
        snapshotting = snapshotting.then(async () => {
          const patch = await workspacePatch(workspace).catch(() => undefined);
          if (patch !== undefined) await ownedSet(redis, id, owner, keys.workspace(id), patch).catch(() => false);
        });
      },
      onOwnershipLost: () => {
        lostOwnership = true;
        child.kill();
        void lostJobReason(redis, id).then((reason) => ctx.report(`warden fleet worker: ${reason}`));
      },
    });
    mirror.start();
  };
  if (resume) startMirror(resume, false);

  const child = startChildSession({
    // The job's session, described once: every option it carries goes through the spec's schema.
    session: ctx.sessionArgs({
      job: spec,
      cwd,
      prompt: resume ? TAKEOVER_PROMPT : spec.prompt,
      ...(resume ? { resume } : {}),
    }),
    cwd,
    command: ctx.command,
    ...(ctx.warm ? { warm: ctx.warm.take() } : {}),
    env: {
      // Never the fleet's own variables (the Redis URL and its password, the job key).
      ...sessionBaseEnv(),
      WARDEN_REPLAY_CONTINUE: "1",
      WARDEN_FLEET_JOB: id,
      // A remote subagent's job: a replay script answers its main loop from the agent's lines.
      ...(spec.agent
        ? {
            WARDEN_REPLAY_AS_AGENT: JSON.stringify({
              agentId: spec.origin?.replace(/^agent:/, "") ?? "",
              agentType: spec.agent.type,
              description: spec.agent.description,
              ...(spec.agent.name ? { name: spec.agent.name } : {}),
            }),
          }
        : {}),
    },
    onLine: (line) => {
      addEventLine(redis, id, line);
      const event = parseLine(line);
      if (event) refusals.observe(event);
      if (event?.type === "system" && event.subtype === "init" && typeof event.session_id === "string") {
        void redis.hset(keys.job(id), "sessionId", event.session_id).catch(() => undefined);
        startMirror(event.session_id, !resume);
      } else if (event?.type === "result") {
        result = event;
      }
    },
    onStderr: (text) => {
      stderrTail = (stderrTail + text).slice(-4_000);
    },
  });
  await redis.hset(keys.job(id), "pid", String(child.pid));
  const cancelWatch = setInterval(() => {
    void redis
      .hget(keys.job(id), "cancel")
      .then((flag) => {
        if (flag && !cancelled) {
          cancelled = true;
          child.abort();
        }
      })
      .catch(() => undefined);
  }, CANCEL_POLL_MS);
  let code: number;
  const sessionStartedAt = performance.now();
  try {
    code = await child.done;
  } finally {
    // The next job's process starts now that this one no longer competes for the CPU.
    ctx.warm?.fill();
    clearInterval(cancelWatch);
    await (mirror as TranscriptMirror | undefined)?.finish();
    await snapshotting;
  }
  if (lostOwnership) throw new Error(await lostJobReason(redis, id));
  if (cancelled || (await redis.hget(keys.job(id), "cancel"))) {
    // What the session changed before the cancel is kept, as a finished job's is: `results` shows
    // its diff stat and patch, so stopping a long job does not throw its work away.
    const patch = await workspacePatch(workspace).catch(() => "");
    await redis
      .multi()
      .hset(keys.job(id), "outcome", "cancelled", "finishedAt", new Date().toISOString(), "diffstat", patchStat(patch))
      .set(keys.patch(id), patch)
      .exec();
    await endEvents(redis, id, "cancelled");
    rmSync(jobDir, { recursive: true, force: true });
    throw new JobCancelledError();
  }
  const finalResult = result as Record<string, unknown> | undefined;
  if (!finalResult) {
    const why = stderrTail.trim().split("\n").slice(-3).join(" | ") || `exit code ${code}`;
    // A crash, not an answer: BullMQ retries with back-off and the next run resumes.
    addEvent(redis, id, { type: "fleet", event: "run_failed", run, error: why });
    throw new Error(`the session ended without a result (${why})`);
  }
  if (finalResult.is_error === true && isOverload(finalResult)) {
    addEvent(redis, id, { type: "fleet", event: "overloaded", run, error: String(finalResult.error ?? "") });
    throw new Error(`the model provider is overloaded: ${String(finalResult.error ?? finalResult.result ?? "")}`);
  }
  return finish(ctx, id, owner, finalResult, workspace, jobDir, refusals, {
    session_ms: Math.round(performance.now() - sessionStartedAt),
  });
}

/** Records the result once (see FINISH) with the patch the session made, and ends the event stream. */
async function finish(
  ctx: WorkerContext,
  id: string,
  owner: string,
  finalResult: Record<string, unknown>,
  workspace: Workspace,
  jobDir: string,
  refusals: RefusalCollector,
  timing: Record<string, number> = {},
): Promise<JobOutcome> {
  const { redis } = ctx;
  const finishStartedAt = performance.now();
  const outcome = finalResult.is_error === true ? "failed" : "completed";
  const patch = await workspacePatch(workspace).catch(() => "");
  const stat = patchStat(patch);
  const refused = refusals.refusalsOf(finalResult, workspace.dir);
  const summary: JobOutcome = {
    sessionId: typeof finalResult.session_id === "string" ? finalResult.session_id : undefined,
    subtype: String(finalResult.subtype ?? outcome),
    result: String(finalResult.result ?? ""),
    ...(refused.length > 0 ? { refusedCalls: refused.length } : {}),
  };
  const recorded = await redis.eval(
    FINISH,
    2,
    keys.job(id),
    keys.patch(id),
    owner,
    outcome,
    JSON.stringify(finalResult),
    stat,
    new Date().toISOString(),
    ctx.workerId,
    patch,
  );
  if (recorded === -1) throw new Error(`${await lostJobReason(redis, id)} (its result was not recorded)`);
  await redis.hset(keys.job(id), "outcomeSummary", JSON.stringify(summary), "refusals", JSON.stringify(refused));
  await endEvents(redis, id, outcome, {
    ...(refused.length > 0 ? { refused_calls: refused.length } : {}),
    ...timing,
    finish_ms: Math.round(performance.now() - finishStartedAt),
  });
  rmSync(jobDir, { recursive: true, force: true });
  if (outcome === "failed")
    throw new UnrecoverableError(summary.result || sessionError(finalResult) || summary.subtype);
  return summary;
}

/** A session that failed before answering (a missing replay script, an unknown provider) says why in
 * its result line's `errors`; that, not the bare subtype, is what the job's failure should say. */
function sessionError(result: Record<string, unknown>): string {
  const errors = Array.isArray(result.errors) ? result.errors.filter((e): e is string => typeof e === "string") : [];
  if (errors.length > 0) return errors.join("; ");
  return typeof result.error === "string" ? result.error : "";
}

/** Overload and rate limits are the provider's, not the job's: retried with back-off. */
function isOverload(result: Record<string, unknown>): boolean {
  const text = `${String(result.error ?? "")} ${String(result.result ?? "")}`;
  return /overloaded|\b529\b|\b429\b|rate.?limit/i.test(text);
}

/**
 * The result line of the job's last run, when that run printed one (a successful one: an error is
 * worth a new run). Found by reading the event stream backwards to the run's start.
 */
async function resultOfLastRun(redis: Redis, id: string): Promise<Record<string, unknown> | undefined> {
  const entries = await redis.xrevrange(keys.events(id), "+", "-", "COUNT", 200);
  for (const [, fields] of entries) {
    const line = fields[fields.indexOf("line") + 1];
    const event = line === undefined ? undefined : parseLine(line);
    if (event?.type === "fleet" && (event.event === "started" || event.event === "resumed")) return undefined;
    if (event?.type === "result") return event.is_error === true ? undefined : event;
  }
  return undefined;
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Appends without waiting: ioredis keeps the order, and queues the line while Redis is away. */
function addEventLine(redis: Redis, id: string, line: string): void {
  redis.xadd(keys.events(id), "MAXLEN", "~", EVENTS_MAX, "*", "line", line).catch(() => undefined);
}

function addEvent(redis: Redis, id: string, event: Record<string, unknown>): void {
  addEventLine(redis, id, JSON.stringify(event));
}

/** The last line of a job's stream: `logs --follow` stops there. */
export async function endEvents(
  redis: Redis,
  id: string,
  state: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const line = JSON.stringify({ type: "fleet", event: "end", state, ...extra });
  await redis.xadd(keys.events(id), "*", "line", line, "end", state);
  await expireJob(redis, id);
}

/**
 * Why this worker no longer owns a job it ran. Another worker's token in the job's record: it was
 * taken over. No record at all: Redis lost it (restarted without persistence, or it was removed),
 * which is not a takeover and must not read as one: nobody else runs the job.
 */
async function lostJobReason(redis: Redis, id: string): Promise<string> {
  const owner = await redis.hget(keys.job(id), "owner").catch(() => "unknown");
  if (owner) return `job ${id} was taken over by another worker; stopping this copy`;
  return `job ${id} is gone from Redis (it restarted without its data, or the job was removed); stopping its session, whose work can no longer be recorded (a Redis with appendonly yes keeps jobs across restarts)`;
}
