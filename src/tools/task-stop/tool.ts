// TaskStop (formerly KillShell): ends a background task and every process it started.
import * as z from "zod";
import { backgroundTasks } from "../../tasks/registry.js";
import { buildTool } from "../../tool/build-tool.js";
import type { TaskStatus } from "../../tool/shell-state.js";
import { TASK_STOP_PROMPT, TASK_STOP_TOOL_NAME } from "./prompt.js";

// `shell_id` is the field name KillShell used; accepted so older transcripts and prompts still work.
const inputSchema = z.lazy(() =>
  z
    .strictObject({
      task_id: z.string().min(1).optional().describe("The id of the background task to stop"),
      shell_id: z.string().min(1).optional().describe("Deprecated: use task_id"),
    })
    .refine((input) => input.task_id !== undefined || input.shell_id !== undefined, {
      message: "task_id is required",
      path: ["task_id"],
    }),
);

type TaskStopInput = z.infer<typeof inputSchema>;

/** What the model sees: task_id alone, required. shell_id stays accepted but is not advertised. */
const MODEL_SCHEMA = {
  type: "object",
  properties: { task_id: { type: "string", minLength: 1, description: "The id of the background task to stop" } },
  required: ["task_id"],
  additionalProperties: false,
};

export interface TaskStopResult {
  task_id: string;
  command: string;
  status: TaskStatus;
  /** False when the task had already ended before the request. */
  stopped: boolean;
}

function taskIdOf(input: TaskStopInput): string {
  return (input.task_id ?? input.shell_id)!;
}

export const TaskStopTool = buildTool<TaskStopInput, TaskStopResult>({
  name: TASK_STOP_TOOL_NAME,
  aliases: ["KillShell"],
  // Deferred as the reference defers it: only needed once something runs in the background, and
  // its name in <deferred-tools> costs a few bytes where its schema cost ~600 on every request.
  shouldDefer: true,
  searchHint: "stop kill background task shell server",
  maxResultSizeChars: 10_000,
  inputSchema,
  inputJSONSchema: MODEL_SCHEMA,
  prompt: async () => TASK_STOP_PROMPT,
  description: async () => "Stop a background task",
  // Ends only what this session itself started in the background.
  checkPermissions: async () => ({ behavior: "allow" }),

  async validateInput(input, context) {
    const registry = backgroundTasks(context);
    const id = taskIdOf(input);
    if (!registry.get(id)) {
      const known = registry.list().map((task) => task.id);
      return {
        result: false,
        message: `No background task with id "${id}".${known.length ? ` Known tasks: ${known.join(", ")}.` : ""}`,
        errorCode: 1,
      };
    }
    return { result: true };
  },

  async call(input, context) {
    const registry = backgroundTasks(context);
    const id = taskIdOf(input);
    const before = registry.get(id);
    if (!before) throw new Error(`No background task with id "${id}".`);
    const wasRunning = before.status === "running";
    const task = (await registry.stop(id)) ?? before;
    return { data: { task_id: task.id, command: task.command, status: task.status, stopped: wasRunning } };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: output.stopped
      ? `Stopped background task ${output.task_id} (${output.command}).`
      : `Background task ${output.task_id} (${output.command}) had already ended (status: ${output.status}); nothing to stop.`,
  }),
});
