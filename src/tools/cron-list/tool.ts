// CronList: the session's schedule, read-only.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { ScheduledTask } from "../../tool/cron.js";
import { describeTask } from "../cron-shared/session-schedule.js";
import { CRON_LIST_PROMPT, CRON_LIST_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() => z.strictObject({}));

export const CronListTool = buildTool<z.infer<typeof inputSchema>, ScheduledTask[]>({
  name: CRON_LIST_TOOL_NAME,
  searchHint: "list scheduled cron tasks",
  shouldDefer: true,
  maxResultSizeChars: 20_000,
  inputSchema,
  prompt: async () => CRON_LIST_PROMPT,
  description: async () => "List scheduled tasks",
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  autoModeSafe: true,
  checkPermissions: async () => ({
    behavior: "allow",
    decisionReason: { type: "tool", reason: "listing changes nothing" },
  }),

  async call(_input, context) {
    const own = context.getAppState().cron?.list() ?? [];
    const fleet = context.options.fleet;
    if (!fleet) return { data: own };
    const { listFleetTasks } = await import("../cron-shared/fleet-tasks.js");
    return { data: [...own, ...(await listFleetTasks(fleet, context))] };
  },

  mapToolResult: (tasks, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: tasks.length ? tasks.map(describeTask).join("\n") : "No tasks are scheduled in this session.",
  }),
});
