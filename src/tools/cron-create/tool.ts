// CronCreate: schedules a prompt for this session (src/tools/cron-shared/). A session-only task
// is allowed unasked: it only sends the model a message later, and whatever that makes the model
// do is checked then. A durable one asks: it writes the project's file and comes back in every
// later session there. A subagent may schedule only for its own session's lifetime.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { ScheduledTask } from "../../tool/cron.js";
import { parseCron } from "../cron-shared/expression.js";
import { describeTask, scheduleOf } from "../cron-shared/session-schedule.js";
import { CRON_CREATE_PROMPT, CRON_CREATE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    cron: z.string().trim().min(1).describe('Five fields, local time: "minute hour day-of-month month day-of-week"'),
    prompt: z.string().trim().min(1).describe("What to send when it is due"),
    recurring: z.boolean().default(true).describe("false: once, at the next match"),
    durable: z.boolean().default(false).describe("true: saved in the project and scheduled in later sessions too"),
  }),
);

export type CronCreateInput = z.infer<typeof inputSchema>;

export const CronCreateTool = buildTool<CronCreateInput, ScheduledTask>({
  name: CRON_CREATE_TOOL_NAME,
  searchHint: "schedule a prompt cron",
  shouldDefer: true,
  maxResultSizeChars: 2_000,
  inputSchema,
  prompt: async () => CRON_CREATE_PROMPT,
  description: async (input) => `Schedule "${input?.cron ?? ""}"`,
  toAutoClassifierInput: (input) => `${input.durable ? "durable " : ""}cron ${input.cron}: ${input.prompt}`,

  async validateInput(input, context) {
    if (input.durable && context.agentId !== undefined) {
      return {
        result: false,
        message:
          "A subagent cannot create a durable task; schedule it for this session (durable: false) or ask the lead.",
        errorCode: 4,
      };
    }
    if (!input.durable && context.options.endsWithPrompt) {
      return {
        result: false,
        message:
          "This run ends once its prompt is answered, so a task scheduled for this session would never run. Save it for later sessions in this project (durable: true), or do the work now.",
        errorCode: 5,
      };
    }
    try {
      await parseCron(input.cron);
    } catch (error) {
      return { result: false, message: error instanceof Error ? error.message : String(error), errorCode: 1 };
    }
    return { result: true };
  },

  async checkPermissions(input, context) {
    if (!input.durable) {
      return {
        behavior: "allow",
        decisionReason: { type: "tool", reason: "a session-only schedule sends messages only" },
      };
    }
    if (context.options.fleet) {
      return {
        behavior: "ask",
        message: `Schedule a fleet job that runs "${input.prompt}" at "${input.cron}" in a fresh clone of this repository, unattended on a worker of ${context.options.fleet.url}, whether or not this session still runs?`,
        decisionReason: { type: "tool", reason: "a durable task becomes a repeatable job of the fleet" },
      };
    }
    return {
      behavior: "ask",
      message: `Save a task that runs "${input.prompt}" at "${input.cron}" in this project's .warden/scheduled_tasks.json, for every later session here?`,
      decisionReason: { type: "tool", reason: "a durable task is saved in the project and runs in later sessions" },
    };
  },

  async call(input, context) {
    const fleet = context.options.fleet;
    if (input.durable && fleet) {
      const { createFleetTask } = await import("../cron-shared/fleet-tasks.js");
      return { data: await createFleetTask(fleet, input, context) };
    }
    const task = await (await scheduleOf(context)).create(input);
    return { data: task };
  },

  mapToolResult: (task, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Scheduled: ${describeTask(task)}`,
  }),
});
