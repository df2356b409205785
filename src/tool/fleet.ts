// The session's way into a fleet (src/fleet/: sessions as jobs on a BullMQ queue in Redis), as
// the tools see it: Agent with `isolation: "remote"`, RemoteTrigger, and durable Cron tasks. Only
// present when a Redis URL is configured (WARDEN_REDIS_URL, or settings `fleet.redisUrl`); the
// CLI loads the fleet's code (BullMQ, ioredis) on the first call, never at start-up.
import type { PermissionMode } from "./permission-types.js";

/** A session job as a tool asks for it: the library's option names, plus `repo`. */
export interface FleetJobRequest {
  prompt: string;
  /** A local path (the worker clones it: committed work only) or a git URL. */
  repo?: string;
  model?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
  permissionMode?: PermissionMode;
  maxTurns?: number;
  maxBudgetUsd?: number;
  appendSystemPrompt?: string;
  /** The subagent this job runs for (Agent isolation "remote"): its type, description and name. */
  agent?: { type: string; description: string; name?: string };
  /** What made the job: "agent:ID", "trigger:ID", "cron:ID". */
  origin?: string;
}

export type FleetJobState = "completed" | "failed" | "cancelled";

/** A finished job as the session reads it back. */
export interface FleetJobOutcome {
  id: string;
  state: FleetJobState;
  /** The session's final text (its result line). */
  text: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** Why it did not complete (the result's subtype or error, or "cancelled"). */
  error?: string;
  worker?: string;
  /** `git diff --stat`-like lines of what the job changed in its clone, and the binary patch. */
  diffstat?: string;
  patch?: string;
  /** The job's transcript lines (JSONL), as its session wrote them. */
  transcript: string[];
  /** Calls the job's session was refused (headless: what would ask is denied), each with why. */
  refusals?: Array<{ tool: string; target: string; reason: string }>;
}

/** A stored job template that RemoteTrigger runs on demand or on its own schedule. */
export interface FleetTrigger {
  id: string;
  name: string;
  job: FleetJobRequest;
  /** Five cron fields, local time of whoever set it (`tz`): the fleet submits the job itself. */
  cron?: string;
  tz?: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastRunAt?: string;
  lastJobId?: string;
  /** When the schedule fires next (ms since the epoch), read from the queue. */
  nextRunAt?: number;
}

/** What `update` changes: the fields given (the job's merged over the old one); `cron: null` removes the schedule. */
export interface FleetTriggerChange {
  name?: string;
  job?: Partial<FleetJobRequest>;
  cron?: string | null;
  tz?: string;
  enabled?: boolean;
}

/** A repeatable job on the queue (a durable Cron task of a project). */
export interface FleetSchedule {
  id: string;
  cron: string;
  tz?: string;
  /** false: fires once (`limit: 1`). */
  recurring: boolean;
  job: FleetJobRequest;
  nextRunAt?: number;
}

export interface FleetAccess {
  /** The Redis URL (password hidden), for messages. */
  readonly url: string;
  /** Submits one job; `cwd` is whose settings decide whether bypass mode may be asked for. */
  submit(job: FleetJobRequest, cwd: string): Promise<string>;
  /**
   * Waits for the job to end. Aborting `signal` cancels the job (its session is aborted as by ESC)
   * and resolves with its cancelled outcome. `onEvent` gets each stream-json line as it comes.
   */
  wait(id: string, signal: AbortSignal, onEvent?: (line: string) => void): Promise<FleetJobOutcome>;
  listTriggers(): Promise<FleetTrigger[]>;
  getTrigger(id: string): Promise<FleetTrigger | undefined>;
  createTrigger(
    trigger: Pick<FleetTrigger, "name" | "job" | "cron" | "tz" | "enabled">,
    cwd: string,
  ): Promise<FleetTrigger>;
  updateTrigger(id: string, change: FleetTriggerChange, cwd: string): Promise<FleetTrigger>;
  /** Submits the trigger's job now; returns the job id. */
  runTrigger(id: string, cwd: string): Promise<string>;
  /** Adds or replaces a repeatable job. */
  upsertSchedule(schedule: Omit<FleetSchedule, "nextRunAt">, cwd: string): Promise<FleetSchedule>;
  removeSchedule(id: string): Promise<boolean>;
  /** The repeatable jobs whose id starts with `prefix`. */
  listSchedules(prefix: string): Promise<FleetSchedule[]>;
}
