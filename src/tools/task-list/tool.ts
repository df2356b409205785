// TaskList: the whole list, one line per task.
import * as z from "zod";
import { sessionTaskStore } from "../../session/task-store.js";
import { buildTool } from "../../tool/build-tool.js";
import type { TaskRecord } from "../../tool/task-list.js";
import { taskLine } from "../task-shared/format.js";
import { taskReminderSource } from "../task-shared/reminder.js";
import { TASK_LIST_PROMPT, TASK_LIST_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() => z.strictObject({}));

export type TaskListInput = z.infer<typeof inputSchema>;

export const TaskListTool = buildTool<TaskListInput, TaskRecord[]>({
  name: TASK_LIST_TOOL_NAME,
  searchHint: "list all tasks status progress",
  shouldDefer: true,
  attachments: [taskReminderSource],
  maxResultSizeChars: 50_000,
  inputSchema,
  prompt: async () => TASK_LIST_PROMPT,
  description: async () => "List the tasks",
  isReadOnly: () => true,
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  toAutoClassifierInput: () => "list tasks",

  async call(_input, context) {
    return { data: sessionTaskStore(context).list() };
  },

  mapToolResult: (tasks, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content:
      tasks.length === 0
        ? "No tasks yet. Add them with TaskCreate."
        : tasks.map((task) => taskLine(task, tasks)).join("\n"),
  }),
});
