// TaskCreate: adds one task to the session's (or team's) task list.
import * as z from "zod";
import { sessionTaskStore } from "../../session/task-store.js";
import { buildTool } from "../../tool/build-tool.js";
import type { TaskRecord } from "../../tool/task-list.js";
import { findNewSecrets, secretRefusal } from "../file-shared/secret-scan.js";
import { taskReminderSource } from "../task-shared/reminder.js";
import { TASK_CREATE_PROMPT, TASK_CREATE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    subject: z.string().trim().min(1).describe("What to do, in the imperative"),
    description: z.string().describe("What done means, and the details needed"),
    activeForm: z.string().trim().min(1).optional().describe('The subject in the present continuous ("Running tests")'),
    metadata: z.record(z.string(), z.unknown()).optional().describe("Extra data to keep with the task"),
  }),
);

export type TaskCreateInput = z.infer<typeof inputSchema>;

export const TaskCreateTool = buildTool<TaskCreateInput, TaskRecord>({
  name: TASK_CREATE_TOOL_NAME,
  searchHint: "add task to the task list todo",
  shouldDefer: true,
  attachments: [taskReminderSource],
  maxResultSizeChars: 10_000,
  inputSchema,
  prompt: async () => TASK_CREATE_PROMPT,
  description: async (input) => (input?.subject ? `Add task: ${input.subject}` : "Add a task"),
  // Changes the agent's own list, nothing in the project (so plan mode may use it too).
  isReadOnly: () => true,
  autoModeSafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  toAutoClassifierInput: (input) => input.subject,

  // The list is a file (shared by a team): it may not be where a credential is written down.
  async validateInput(input, context) {
    const text = [
      input.subject,
      input.description,
      input.activeForm ?? "",
      JSON.stringify(input.metadata ?? {}, null, 1),
    ];
    const before = () => JSON.stringify(sessionTaskStore(context).list());
    return secretRefusal("the task list", await findNewSecrets(text.join("\n"), before)) ?? { result: true };
  },

  async call(input, context) {
    const store = sessionTaskStore(context);
    const task = store.create(input);
    // TaskCreated hooks may refuse the task: it is taken off the list again, and the model told why.
    const hooks = context.getAppState().hooks;
    if (hooks?.has("TaskCreated")) {
      const team = context.getAppState().team;
      const verdict = await hooks.taskEvent("TaskCreated", task, team, context.abortController.signal);
      if (verdict.blocked !== undefined) {
        store.delete(task.id);
        throw new Error(`The task was not created: a TaskCreated hook refused it: ${verdict.blocked}`);
      }
    }
    return { data: task };
  },

  mapToolResult: (task, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Task #${task.id} created: ${task.subject}`,
  }),
});
