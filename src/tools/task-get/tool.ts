// TaskGet: one task of the list, every field.
import * as z from "zod";
import { sessionTaskStore } from "../../session/task-store.js";
import { buildTool } from "../../tool/build-tool.js";
import { openBlockers, type TaskRecord } from "../../tool/task-list.js";

/** The task, and which of its blockers are still open (a completed one blocks no more). */
type TaskGetOutput = TaskRecord & { openBlockedBy: string[] };

import { taskDetails, unknownTaskMessage } from "../task-shared/format.js";
import { taskReminderSource } from "../task-shared/reminder.js";
import { TASK_GET_PROMPT, TASK_GET_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    taskId: z.string().trim().min(1).describe("The id of the task"),
  }),
);

export type TaskGetInput = z.infer<typeof inputSchema>;

export const TaskGetTool = buildTool<TaskGetInput, TaskGetOutput>({
  name: TASK_GET_TOOL_NAME,
  searchHint: "show one task details from the task list",
  shouldDefer: true,
  attachments: [taskReminderSource],
  maxResultSizeChars: 20_000,
  inputSchema,
  prompt: async () => TASK_GET_PROMPT,
  description: async (input) => (input?.taskId ? `Show task #${input.taskId}` : "Show a task"),
  isReadOnly: () => true,
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  toAutoClassifierInput: (input) => input.taskId,

  async validateInput(input, context) {
    const store = sessionTaskStore(context);
    if (store.get(input.taskId)) return { result: true };
    return { result: false, message: unknownTaskMessage(input.taskId, store.list()), errorCode: 1 };
  },

  async call(input, context) {
    const store = sessionTaskStore(context);
    const task = store.get(input.taskId);
    if (!task) throw new Error(`There is no task #${input.taskId}.`);
    return { data: { ...task, openBlockedBy: openBlockers(task, store.list()) } };
  },

  mapToolResult: (task, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: taskDetails(task, task.openBlockedBy),
  }),
});
