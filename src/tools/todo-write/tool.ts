// TodoWrite: the model's own task list for this session, replaced whole on every call. The list is
// session state (AppState.todoLists), not a file: the loop shows it back to the model as a
// reminder, to people as a `todo` event, and records it in the transcript for --resume.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import {
  MAIN_TODO_LIST,
  TASK_LIST_STATUSES,
  type TaskListStatus,
  type TodoItem,
  type TodoListState,
} from "../../tool/task-list.js";
import type { ValidationResult } from "../../tool/types.js";
import { findNewSecrets, secretRefusal } from "../file-shared/secret-scan.js";
import { todoReminderSource } from "../task-shared/reminder.js";
import { TODO_WRITE_PROMPT, TODO_WRITE_TOOL_NAME } from "./prompt.js";

const todoSchema = z.lazy(() =>
  z.strictObject({
    content: z.string().trim().min(1),
    status: z.enum(TASK_LIST_STATUSES as [TaskListStatus, ...TaskListStatus[]]),
    activeForm: z.string().trim().min(1),
  }),
);

const inputSchema = prebuiltInputSchema(TODO_WRITE_TOOL_NAME, () =>
  z.strictObject({
    todos: z.array(todoSchema).describe("The whole updated list"),
  }),
);

export type TodoWriteInput = z.infer<typeof inputSchema>;

export interface TodoWriteOutput {
  oldTodos: TodoItem[];
  newTodos: TodoItem[];
}

function countByStatus(items: readonly TodoItem[]): Record<TaskListStatus, number> {
  const counts: Record<TaskListStatus, number> = { pending: 0, in_progress: 0, completed: 0 };
  for (const item of items) counts[item.status]++;
  return counts;
}

function itemText(item: Pick<TodoItem, "content" | "activeForm">): string {
  return `${item.content}\n${item.activeForm}`;
}

/** Code 0 when an item holds a credential the previous list did not (named by kind and item number). */
async function credentialRefusal(
  todos: readonly Pick<TodoItem, "content" | "activeForm">[],
  previous: readonly TodoItem[] | undefined,
): Promise<ValidationResult | undefined> {
  const before = () => (previous ?? []).map(itemText).join("\n");
  const perItem = await Promise.all(todos.map((todo) => findNewSecrets(itemText(todo), before)));
  const findings = perItem.flatMap((found, index) => found.map((f) => ({ kind: f.kind, line: index + 1 })));
  return secretRefusal("the task list", findings, "item");
}

export const TodoWriteTool = buildTool<TodoWriteInput, TodoWriteOutput>({
  name: TODO_WRITE_TOOL_NAME,
  searchHint: "task list todo plan progress steps",
  maxResultSizeChars: 10_000,
  attachments: [todoReminderSource],
  inputSchema,
  prompt: async () => TODO_WRITE_PROMPT,
  description: async () => "Update the task list",
  // It changes the agent's own notes, nothing in the project: plan mode may use it, and it needs
  // no one's permission. Not concurrency-safe: two whole-list replacements must keep their order.
  isReadOnly: () => true,
  autoModeSafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  toAutoClassifierInput: (input) => input.todos.map((todo) => `${todo.status}: ${todo.content}`).join("\n"),

  async validateInput(input, context) {
    // The list is shown back to the model every few turns and kept in the transcript: a credential
    // in it would travel with the conversation.
    const refusal = await credentialRefusal(
      input.todos,
      context.getAppState().todoLists?.[context.agentId ?? MAIN_TODO_LIST]?.items,
    );
    if (refusal) return refusal;
    const active = input.todos.filter((todo) => todo.status === "in_progress");
    if (active.length > 1) {
      return {
        result: false,
        message: `At most one item may be in_progress; ${active.length} are: ${active
          .map((todo) => JSON.stringify(todo.content))
          .join(", ")}. Finish one (completed) or put the others back to pending.`,
        errorCode: 1,
      };
    }
    return { result: true };
  },

  async call(input, context) {
    const key = context.agentId ?? MAIN_TODO_LIST;
    const newTodos: TodoItem[] = input.todos.map(({ content, status, activeForm }) => ({
      content,
      status,
      activeForm,
    }));
    let oldTodos: TodoItem[] = [];
    context.setAppState((prev) => {
      const previous = prev.todoLists?.[key];
      oldTodos = previous?.items ?? [];
      const next: TodoListState = { items: newTodos, revision: (previous?.revision ?? 0) + 1 };
      return { ...prev, todoLists: { ...prev.todoLists, [key]: next } };
    });
    return { data: { oldTodos, newTodos } };
  },

  mapToolResult(output, toolUseId) {
    const counts = countByStatus(output.newTodos);
    const content =
      output.newTodos.length === 0
        ? "The task list is now empty."
        : `Task list updated: ${counts.completed} completed, ${counts.in_progress} in progress, ${counts.pending} pending. Keep it current as you work.`;
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
});
