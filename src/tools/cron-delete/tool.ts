// CronDelete: takes a task off the session's schedule (and out of the project's file when durable).
// Removing only stops something, so it needs no approval.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { scheduleOf } from "../cron-shared/session-schedule.js";
import { CRON_DELETE_PROMPT, CRON_DELETE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() => z.strictObject({ id: z.string().trim().min(1).describe("The task's id") }));

export type CronDeleteInput = z.infer<typeof inputSchema>;

export const CronDeleteTool = buildTool<CronDeleteInput, { id: string }>({
  name: CRON_DELETE_TOOL_NAME,
  searchHint: "cancel a cron task",
  shouldDefer: true,
  maxResultSizeChars: 1_000,
  inputSchema,
  prompt: async () => CRON_DELETE_PROMPT,
  description: async (input) => `Delete task ${input?.id ?? ""}`,
  checkPermissions: async () => ({
    behavior: "allow",
    decisionReason: { type: "tool", reason: "removing a task only stops it" },
  }),

  async validateInput(input, context) {
    const tasks = context.getAppState().cron?.list() ?? [];
    if (tasks.some((task) => task.id === input.id)) return { result: true };
    const fleet = context.options.fleet;
    if (fleet) {
      const { listFleetTasks } = await import("../cron-shared/fleet-tasks.js");
      const onFleet = await listFleetTasks(fleet, context);
      if (onFleet.some((task) => task.id === input.id)) return { result: true };
      tasks.push(...onFleet);
    }
    return {
      result: false,
      message: `No scheduled task has the id ${JSON.stringify(input.id)}.${tasks.length ? ` Ids: ${tasks.map((t) => t.id).join(", ")}.` : " This session has none."}`,
      errorCode: 1,
    };
  },

  async call(input, context) {
    const own = context.getAppState().cron?.list() ?? [];
    const fleet = context.options.fleet;
    if (fleet && !own.some((task) => task.id === input.id)) {
      const { deleteFleetTask } = await import("../cron-shared/fleet-tasks.js");
      await deleteFleetTask(fleet, input.id);
      return { data: { id: input.id } };
    }
    (await scheduleOf(context)).delete(input.id);
    return { data: { id: input.id } };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Deleted the scheduled task ${output.id}.`,
  }),
});
