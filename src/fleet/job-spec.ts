// What a fleet job is: the session a worker runs. Written with the library's option names (an
// NDJSON line of `warden fleet submit FILE` is exactly this object) plus `repo`.
import * as z from "zod";
import { FleetUsageError } from "./redis.js";

const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto"] as const;

export const jobSpecSchema = z
  .object({
    prompt: z.string().trim().min(1, "prompt must not be empty"),
    /** A local path (cloned by the worker, so the submitter's copy is never touched) or a git URL. */
    repo: z
      .string()
      .min(1)
      .refine((repo) => !repo.startsWith("-"), 'must not start with "-" (git would read it as an option)')
      .optional(),
    model: z.string().min(1).optional(),
    allowedTools: z.array(z.string().min(1)).optional(),
    disallowedTools: z.array(z.string().min(1)).optional(),
    permissionMode: z.enum(PERMISSION_MODES).optional(),
    /**
     * The built-in tools the session is offered (the SDK's `tools`; an empty list: none). It can
     * only narrow what the session has: rules and the worker's policy still decide each call.
     */
    tools: z.array(z.string().min(1)).optional(),
    maxTurns: z.number().int().positive().optional(),
    maxBudgetUsd: z.number().positive().optional(),
    /** The session's own output format is always stream-json; this is what `results` shows. */
    outputFormat: z.enum(["text", "json", "stream-json"]).optional(),
    /** A JSON schema (object) the answer must match: the result's structured_output. */
    jsonSchema: z.record(z.string(), z.unknown()).optional(),
    /** Set by the fleet itself for a subagent run remotely (Agent isolation: "remote"). */
    appendSystemPrompt: z.string().optional(),
    /** The subagent this job runs (Agent isolation "remote"): replay scripts answer it by these keys. */
    agent: z
      .object({ type: z.string().min(1), description: z.string().min(1), name: z.string().min(1).optional() })
      .strict()
      .optional(),
    /** What made the job ("agent:ID", "trigger:ID", "cron:ID"); shown by status. */
    origin: z.string().min(1).optional(),
  })
  .strict();

export type JobSpec = z.infer<typeof jobSpecSchema>;

/** The provider a job's model belongs to (`anthropic:claude-...` -> anthropic), for the global limits. */
export function providerOf(spec: Pick<JobSpec, "model">): string {
  const model = spec.model ?? "default";
  const colon = model.indexOf(":");
  return colon > 0 ? model.slice(0, colon) : model;
}

/**
 * What is wrong with a job's model (a provider nobody knows), when the caller can tell: the CLI
 * passes the providers' own check, so a job that could never start is refused at submit.
 */
export type ModelProblem = (model: string) => string | undefined;

/**
 * Why a rule of allowedTools or disallowedTools is not a rule (`Bash((`), when the caller can
 * tell: the CLI passes the permission rules' own parser, so a job every worker would refuse is
 * refused at submit instead of failing later on a worker.
 */
export type RuleProblem = (rule: string) => string | undefined;

/** Checks one job; the error names where it came from (a file's line, a flag). */
export function parseJobSpec(
  value: unknown,
  where: string,
  modelProblem?: ModelProblem,
  ruleProblem?: RuleProblem,
): JobSpec {
  const parsed = jobSpecSchema.safeParse(value);
  if (parsed.success) {
    const problem = parsed.data.model === undefined ? undefined : modelProblem?.(parsed.data.model);
    if (problem) throw new FleetUsageError(`${where}: model: ${problem}`);
    for (const list of ["allowedTools", "disallowedTools"] as const) {
      for (const rule of parsed.data[list] ?? []) {
        const wrong = ruleProblem?.(rule);
        if (wrong) throw new FleetUsageError(`${where}: ${list}: ${JSON.stringify(rule)} is not a rule (${wrong})`);
      }
    }
    return parsed.data;
  }
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new FleetUsageError(`${where}: ${problems.join("; ")}`);
}

/** `submit FILE`: one JSON object a line; blank lines skipped; every bad line reported at once. */
export function parseJobLines(
  text: string,
  source: string,
  modelProblem?: ModelProblem,
  ruleProblem?: RuleProblem,
): JobSpec[] {
  const specs: JobSpec[] = [];
  const errors: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      errors.push(`${where}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    try {
      specs.push(parseJobSpec(value, where, modelProblem, ruleProblem));
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  });
  if (errors.length > 0) throw new FleetUsageError(`no job was submitted:\n  ${errors.join("\n  ")}`);
  if (specs.length === 0) throw new FleetUsageError(`${source} holds no job (one JSON object a line)`);
  return specs;
}
