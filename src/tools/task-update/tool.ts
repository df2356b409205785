// TaskUpdate: changes one task; `status: "deleted"` removes it. Dependencies are kept on both ends.
import * as z from "zod";
import { isTaskId, sessionTaskStore } from "../../session/task-store.js";
import { buildTool } from "../../tool/build-tool.js";
import { openBlockers, type TaskChanges, type TaskListStatus, type TaskRecord } from "../../tool/task-list.js";
import { findNewSecrets, secretRefusal } from "../file-shared/secret-scan.js";
import { unknownTaskMessage } from "../task-shared/format.js";
import { taskReminderSource } from "../task-shared/reminder.js";
import { notifyAssignment } from "../team-shared/assignment.js";
import { TASK_UPDATE_PROMPT, TASK_UPDATE_TOOL_NAME } from "./prompt.js";

const taskIds = z.lazy(() => z.array(z.string().trim().min(1)));

const inputSchema = z.lazy(() =>
  z.strictObject({
    taskId: z.string().trim().min(1).describe("The id of the task to change"),
    status: z.enum(["pending", "in_progress", "completed", "deleted"]).optional(),
    subject: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    activeForm: z.string().trim().min(1).optional(),
    addBlocks: taskIds.optional().describe("Ids of tasks that cannot start before this one is done"),
    addBlockedBy: taskIds.optional().describe("Ids of tasks that must be done before this one"),
    owner: z.string().trim().min(1).optional(),
    metadata: z.record(z.string(), z.unknown()).optional().describe("Keys to merge in; null removes a key"),
  }),
);

export type TaskUpdateInput = z.infer<typeof inputSchema>;

export type TaskUpdateOutput =
  | { kind: "deleted"; taskId: string }
  | { kind: "updated"; before: TaskRecord; after: TaskRecord };

function changedFields(before: TaskRecord, after: TaskRecord): string[] {
  const changes: string[] = [];
  if (before.status !== after.status) changes.push(`status ${before.status} → ${after.status}`);
  for (const field of ["subject", "description", "activeForm", "owner"] as const) {
    if (before[field] !== after[field]) changes.push(field);
  }
  if (before.blocks.length !== after.blocks.length)
    changes.push(`blocks ${after.blocks.map((id) => `#${id}`).join(", ")}`);
  if (before.blockedBy.length !== after.blockedBy.length)
    changes.push(`blocked by ${after.blockedBy.map((id) => `#${id}`).join(", ")}`);
  if (JSON.stringify(before.metadata) !== JSON.stringify(after.metadata)) changes.push("metadata");
  return changes;
}

export const TaskUpdateTool = buildTool<TaskUpdateInput, TaskUpdateOutput>({
  name: TASK_UPDATE_TOOL_NAME,
  searchHint: "update task status complete start delete dependencies",
  shouldDefer: true,
  attachments: [taskReminderSource],
  maxResultSizeChars: 10_000,
  inputSchema,
  prompt: async () => TASK_UPDATE_PROMPT,
  description: async (input) => (input?.taskId ? `Update task #${input.taskId}` : "Update a task"),
  // Changes the agent's own list, nothing in the project (so plan mode may use it too).
  isReadOnly: () => true,
  autoModeSafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  toAutoClassifierInput: (input) => `#${input.taskId} ${input.status ?? ""}`.trim(),

  async validateInput(input, context) {
    const store = sessionTaskStore(context);
    const known = store.list();
    const exists = (id: string) => isTaskId(id) && known.some((task) => task.id === id);
    if (!exists(input.taskId)) return { result: false, message: unknownTaskMessage(input.taskId, known), errorCode: 1 };
    for (const id of [...(input.addBlocks ?? []), ...(input.addBlockedBy ?? [])]) {
      if (id === input.taskId)
        return { result: false, message: `Task #${id} cannot block or wait for itself.`, errorCode: 2 };
      if (!exists(id)) return { result: false, message: unknownTaskMessage(id, known), errorCode: 1 };
    }
    // In a team, taking a task is a hard rule: not someone else's, not before its blockers are done.
    const team = context.getAppState().team;
    const task = known.find((t) => t.id === input.taskId);
    if (team && task && input.status === "in_progress") {
      const taker = input.owner ?? team.memberName;
      if (task.owner !== undefined && task.owner !== taker) {
        return {
          result: false,
          message: `Task #${task.id} belongs to ${task.owner}. Pick a task without an owner (TaskList), or ask ${task.owner} with SendMessage.`,
          errorCode: 3,
        };
      }
      const open = openBlockers(task, known);
      if (open.length > 0) {
        return {
          result: false,
          message: `Task #${task.id} is blocked by ${open.map((id) => `#${id}`).join(", ")}, not completed yet. Pick an unblocked task.`,
          errorCode: 4,
        };
      }
    }
    // The list is a file (shared by a team): it may not be where a credential is written down.
    const text = [input.subject ?? "", input.description ?? "", input.activeForm ?? ""];
    if (input.metadata) text.push(JSON.stringify(input.metadata, null, 1));
    const findings = await findNewSecrets(text.join("\n"), () => JSON.stringify(known, null, 1));
    return secretRefusal("the task list", findings) ?? { result: true };
  },

  async call(input, context) {
    const store = sessionTaskStore(context);
    if (input.status === "deleted") {
      if (!store.delete(input.taskId)) throw new Error(`There is no task #${input.taskId}.`);
      return { data: { kind: "deleted", taskId: input.taskId } };
    }
    const { taskId, status, ...rest } = input;
    // TaskCompleted hooks may refuse the completion: the task stays as it was, and the model is told why.
    const hooks = context.getAppState().hooks;
    const current = store.get(taskId);
    if (status === "completed" && current && current.status !== "completed" && hooks?.has("TaskCompleted")) {
      const team = context.getAppState().team;
      const verdict = await hooks.taskEvent("TaskCompleted", current, team, context.abortController.signal);
      if (verdict.blocked !== undefined) {
        throw new Error(`Task #${taskId} was not marked completed: a TaskCompleted hook refused: ${verdict.blocked}`);
      }
    }
    const changes: TaskChanges = { ...rest };
    if (status !== undefined) changes.status = status as TaskListStatus;
    // An agent that starts a task takes it, unless someone already has: a teammate by its name.
    const team = context.getAppState().team;
    const me = team?.memberName ?? context.agentId;
    if (status === "in_progress" && changes.owner === undefined && me !== undefined) {
      if (!store.get(taskId)?.owner) changes.owner = me;
    }
    const updated = store.update(taskId, changes);
    if (!updated) throw new Error(`There is no task #${taskId}.`);
    // A task given to another member: it is told at its next turn.
    const owner = updated.after.owner;
    if (team && owner !== undefined && owner !== updated.before.owner && owner !== team.memberName) {
      notifyAssignment(team, owner, updated.after);
    }
    return { data: { kind: "updated", ...updated } };
  },

  mapToolResult(output, toolUseId) {
    if (output.kind === "deleted") {
      return { type: "tool_result", tool_use_id: toolUseId, content: `Task #${output.taskId} deleted.` };
    }
    const changes = changedFields(output.before, output.after);
    const content = changes.length
      ? `Task #${output.after.id} updated: ${changes.join("; ")}.`
      : `Task #${output.after.id} unchanged (nothing new in the call).`;
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
});
