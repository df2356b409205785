// RemoteTrigger: the fleet's triggers (src/fleet/triggers.ts through ToolUseContextOptions.fleet):
// list, get, create, update, run, as the reference lists them. Offered only when a fleet is
// configured, and deferred. Reading is allowed unasked; creating, changing or running a trigger
// asks, since each makes a job run unattended on some worker, now or on a schedule.
import { isAbsolute, resolve } from "node:path";
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { FleetJobRequest, FleetTrigger } from "../../tool/fleet.js";
import { PERMISSION_MODES, type PermissionMode } from "../../tool/permission-types.js";
import type { ToolUseContext } from "../../tool/types.js";
import { parseCron } from "../cron-shared/expression.js";
import { repositoryOf } from "../fleet-shared/session-job.js";
import { REMOTE_TRIGGER_PROMPT, REMOTE_TRIGGER_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    action: z.enum(["list", "get", "create", "update", "run"]),
    trigger_id: z.string().min(1).optional(),
    body: z.record(z.string(), z.unknown()).optional(),
  }),
);

type RemoteTriggerInput = z.infer<typeof inputSchema>;

const jobFields = {
  prompt: z.string().trim().min(1),
  repo: z.string().min(1),
  model: z.string().min(1),
  allowedTools: z.array(z.string().min(1)),
  disallowedTools: z.array(z.string().min(1)),
  permissionMode: z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]),
  maxTurns: z.number().int().positive(),
  maxBudgetUsd: z.number().positive(),
};

const createBody = z.lazy(() =>
  z.strictObject({
    name: z.string().trim().min(1),
    ...jobFields,
    repo: jobFields.repo.optional(),
    model: jobFields.model.optional(),
    allowedTools: jobFields.allowedTools.optional(),
    disallowedTools: jobFields.disallowedTools.optional(),
    permissionMode: jobFields.permissionMode.optional(),
    maxTurns: jobFields.maxTurns.optional(),
    maxBudgetUsd: jobFields.maxBudgetUsd.optional(),
    cron: z.string().trim().min(1).optional(),
    enabled: z.boolean().optional(),
  }),
);

const updateBody = z.lazy(() =>
  z.strictObject({
    name: z.string().trim().min(1).optional(),
    ...Object.fromEntries(Object.entries(jobFields).map(([key, schema]) => [key, schema.optional()])),
    cron: z.string().trim().min(1).nullable().optional(),
    enabled: z.boolean().optional(),
  }),
);

export type RemoteTriggerOutput =
  | { action: "list"; triggers: FleetTrigger[] }
  | { action: "get" | "create" | "update"; trigger: FleetTrigger }
  | { action: "run"; trigger_id: string; job_id: string };

function bodyProblem(schema: z.ZodType, body: unknown): string | undefined {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return undefined;
  return parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
}

const JOB_KEYS = Object.keys(jobFields) as Array<keyof typeof jobFields>;

function jobOf(body: Record<string, unknown>): Partial<FleetJobRequest> {
  const job: Record<string, unknown> = {};
  for (const key of JOB_KEYS) if (body[key] !== undefined) job[key] = body[key];
  return job as Partial<FleetJobRequest>;
}

/** A local repository path, made absolute (workers do not share our working directory). */
async function repoOf(repo: string | undefined, context: ToolUseContext): Promise<string | undefined> {
  const cwd = context.getAppState().bashCwd ?? context.options.cwd;
  if (repo !== undefined) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/]+@[^/]+:/.test(repo)) return repo;
    return isAbsolute(repo) ? repo : resolve(cwd, repo);
  }
  return repositoryOf(cwd);
}

function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function describe(trigger: FleetTrigger): string {
  const schedule = trigger.cron
    ? `"${trigger.cron}"${trigger.tz ? ` (${trigger.tz})` : ""}${trigger.enabled ? "" : ", paused"}${
        trigger.nextRunAt ? `, next ${new Date(trigger.nextRunAt).toISOString()}` : ""
      }`
    : trigger.enabled
      ? "run on demand"
      : "disabled";
  const last = trigger.lastJobId ? `; last job ${trigger.lastJobId} at ${trigger.lastRunAt}` : "";
  const prompt = trigger.job.prompt.length > 80 ? `${trigger.job.prompt.slice(0, 79)}…` : trigger.job.prompt;
  return `${trigger.id} "${trigger.name}": ${schedule}${last}\n  repo ${trigger.job.repo ?? "(none)"}, model ${trigger.job.model ?? "(default)"}: ${prompt}`;
}

export const RemoteTriggerTool = buildTool<RemoteTriggerInput, RemoteTriggerOutput>({
  name: REMOTE_TRIGGER_TOOL_NAME,
  searchHint: "fleet trigger remote job schedule",
  shouldDefer: true,
  maxResultSizeChars: 20_000,
  inputSchema,
  prompt: async () => REMOTE_TRIGGER_PROMPT,
  description: async (input) => `RemoteTrigger ${input?.action ?? ""}`,
  isReadOnly: (input) => input.action === "list" || input.action === "get",
  toAutoClassifierInput: (input) =>
    `RemoteTrigger ${input.action} ${input.trigger_id ?? ""} ${JSON.stringify(input.body ?? {})}`,

  async validateInput(input, context) {
    if (!context.options.fleet) {
      return {
        result: false,
        message: "No fleet is configured: set WARDEN_REDIS_URL (or settings fleet.redisUrl).",
        errorCode: 1,
      };
    }
    if ((input.action === "get" || input.action === "update" || input.action === "run") && !input.trigger_id) {
      return { result: false, message: `action "${input.action}" needs trigger_id.`, errorCode: 2 };
    }
    const schema = input.action === "create" ? createBody : input.action === "update" ? updateBody : undefined;
    if (schema) {
      if (input.body === undefined)
        return { result: false, message: `action "${input.action}" needs a body.`, errorCode: 3 };
      const problem = bodyProblem(schema, input.body);
      if (problem) return { result: false, message: `Bad body: ${problem}`, errorCode: 3 };
      const cron = input.body.cron;
      if (typeof cron === "string") {
        try {
          await parseCron(cron);
        } catch (error) {
          return { result: false, message: (error as Error).message, errorCode: 4 };
        }
      }
    }
    return { result: true };
  },

  async checkPermissions(input) {
    if (input.action === "list" || input.action === "get") {
      return {
        behavior: "allow",
        updatedInput: input,
        decisionReason: { type: "tool", reason: "reads triggers only" },
      };
    }
    const what =
      input.action === "run"
        ? `Run trigger ${input.trigger_id} now (a fleet job, unattended on a worker)?`
        : `${input.action === "create" ? "Create" : `Change trigger ${input.trigger_id}:`} ${JSON.stringify(input.body)}, whose job runs unattended on a fleet worker${
            input.body?.cron ? ` on the schedule "${String(input.body.cron)}"` : ""
          }?`;
    return {
      behavior: "ask",
      message: what,
      decisionReason: { type: "tool", reason: "a trigger runs a session on the fleet without anyone watching" },
    };
  },

  async call(input, context) {
    const fleet = context.options.fleet;
    if (!fleet) throw new Error("No fleet is configured: set WARDEN_REDIS_URL (or settings fleet.redisUrl).");
    const cwd = context.options.cwd;
    const body = input.body ?? {};
    const id = input.trigger_id ?? "";
    switch (input.action) {
      case "list":
        return { data: { action: "list", triggers: await fleet.listTriggers() } };
      case "get": {
        const trigger = await fleet.getTrigger(id);
        if (!trigger) throw new Error(`No trigger ${id}; RemoteTrigger list shows them.`);
        return { data: { action: "get", trigger } };
      }
      case "create": {
        const job = jobOf(body);
        const repo = await repoOf(job.repo, context);
        const trigger = await fleet.createTrigger(
          {
            name: String(body.name),
            job: {
              ...job,
              prompt: String(body.prompt),
              model: job.model ?? context.options.model,
              ...(repo ? { repo } : {}),
            },
            enabled: body.enabled !== false,
            ...(typeof body.cron === "string" ? { cron: body.cron, tz: localTimeZone() } : {}),
          },
          cwd,
        );
        return { data: { action: "create", trigger } };
      }
      case "update": {
        const job = jobOf(body);
        if (job.repo !== undefined) job.repo = await repoOf(job.repo, context);
        const trigger = await fleet.updateTrigger(
          id,
          {
            ...(typeof body.name === "string" ? { name: body.name } : {}),
            ...(typeof body.enabled === "boolean" ? { enabled: body.enabled } : {}),
            ...(Object.keys(job).length > 0 ? { job } : {}),
            ...(body.cron === null
              ? { cron: null }
              : typeof body.cron === "string"
                ? { cron: body.cron, tz: localTimeZone() }
                : {}),
          },
          cwd,
        );
        return { data: { action: "update", trigger } };
      }
      case "run":
        return { data: { action: "run", trigger_id: id, job_id: await fleet.runTrigger(id, cwd) } };
    }
  },

  mapToolResult: (output, toolUseId) => {
    let content: string;
    if (output.action === "list") {
      content =
        output.triggers.length === 0 ? "No triggers." : output.triggers.map((trigger) => describe(trigger)).join("\n");
    } else if (output.action === "run") {
      content = `Trigger ${output.trigger_id} submitted fleet job ${output.job_id}.`;
    } else {
      const verb = output.action === "create" ? "Created" : output.action === "update" ? "Updated" : "Trigger";
      content = `${verb}: ${describe(output.trigger)}`;
    }
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
});
