// The session's task list, as types: what TodoWrite and the Task tools (TaskCreate, TaskGet,
// TaskUpdate, TaskList) keep, and the one shape in which the loop shows either list to the model
// (reminders), to people (the `todo` event) and to the transcript. Declared in the contract so
// that AppState can name them; src/tools/todo-write/, src/tools/task-*/ and
// src/session/task-store.ts hold the code.

/** The two families of list tools. A session offers exactly one (src/tools/registry.ts). */
export type TaskListFamily = "TodoWrite" | "Tasks";

export const TASK_LIST_FAMILIES: readonly TaskListFamily[] = ["TodoWrite", "Tasks"];

export type TaskListStatus = "pending" | "in_progress" | "completed";

export const TASK_LIST_STATUSES: readonly TaskListStatus[] = ["pending", "in_progress", "completed"];

/** One item of a TodoWrite list (the model replaces the whole list on every call). */
export interface TodoItem {
  content: string;
  status: TaskListStatus;
  /** The item in the present continuous ("Running the tests"), shown while it is in progress. */
  activeForm: string;
}

/** A TodoWrite list and how often it changed. */
export interface TodoListState {
  items: TodoItem[];
  /** Bumped on every change: reminders and the `todo` event compare it with what they last showed. */
  revision: number;
}

/**
 * The tasks that still hold `task` back: its blockers not completed yet. A completed blocker no
 * longer blocks, so nothing that shows a task "blocked" (TaskList, TaskGet, the reminder, the UI)
 * may count it. A blocker the list does not hold counts as open: nothing shows it done.
 */
export function openBlockers(task: Pick<TaskRecord, "blockedBy">, tasks: readonly TaskRecord[]): string[] {
  return task.blockedBy.filter((id) => tasks.find((other) => other.id === id)?.status !== "completed");
}

/** The key of the main thread's TodoWrite list; a subagent's list is keyed by its agentId. */
export const MAIN_TODO_LIST = "main";

/** One task of the Tasks family. */
export interface TaskRecord {
  /** "1", "2", ...: short, so the model can name them in blocks / blockedBy. */
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  status: TaskListStatus;
  /** The agent working on it (a teammate's name or agent id). */
  owner?: string;
  /** Tasks that cannot start before this one is done. */
  blocks: string[];
  /** Tasks that must be done before this one can start. */
  blockedBy: string[];
  metadata?: Record<string, unknown>;
}

export interface NewTaskFields {
  subject: string;
  description: string;
  activeForm?: string;
  metadata?: Record<string, unknown>;
}

export interface TaskChanges {
  subject?: string;
  description?: string;
  activeForm?: string;
  status?: TaskListStatus;
  owner?: string;
  addBlocks?: string[];
  addBlockedBy?: string[];
  /** Merged into the task's metadata; a key set to null is removed. */
  metadata?: Record<string, unknown>;
}

/**
 * Where the Tasks family keeps its list. One store can be shared: every member of a team opens the
 * same folder, and each change is made under a lock, so two agents never overwrite each other.
 * Operations are synchronous and small (one JSON file per task).
 */
export interface TaskListStore {
  /** The folder that holds the list. */
  readonly location: string;
  /** Bumped by every change, by whoever made it (another process included). */
  revision(): number;
  list(): TaskRecord[];
  get(id: string): TaskRecord | undefined;
  create(fields: NewTaskFields): TaskRecord;
  /** Undefined when there is no such task. Unknown ids in addBlocks / addBlockedBy throw. */
  update(id: string, changes: TaskChanges): { before: TaskRecord; after: TaskRecord } | undefined;
  /** Removes the task and every dependency on it; false when there was no such task. */
  delete(id: string): boolean;
}

/** One item of either family, as reminders, events and the transcript show it. */
export interface TaskListItem {
  /** Tasks family only. */
  id?: string;
  /** The TodoWrite item's content, or the task's subject. */
  content: string;
  status: TaskListStatus;
  activeForm?: string;
  owner?: string;
  blockedBy?: string[];
}

/** The list as it is now. */
export interface TaskListSnapshot {
  family: TaskListFamily;
  revision: number;
  items: TaskListItem[];
}

/**
 * When the task-list reminder last went out for one list (src/tools/task-shared/reminder.ts). Turns
 * are the session's model requests, as the attachment module counts them.
 */
export interface TaskListReminderState {
  /** The revision the last full reminder showed. */
  shownRevision?: number;
  /** Turn at which a change was first seen. */
  lastChangeTurn: number;
  /** Turn of the last task-list reminder of any kind. */
  lastReminderTurn: number;
  /** Turn of the last "the list has gone stale" reminder. */
  lastStaleTurn: number;
  /** The verification suggestion went out for the list as it is (reset when work reopens). */
  verificationSuggested: boolean;
}

/** What the list snapshot is read from: the two AppState fields that hold a list. */
interface TaskListHolder {
  todoLists?: Record<string, TodoListState>;
  taskStore?: TaskListStore;
}

/**
 * The list as it is now, whichever family keeps it: the Tasks store when one is open, else the
 * TodoWrite list under `listKey`. Undefined when the session has no list yet.
 */
export function currentTaskList(state: TaskListHolder, listKey = MAIN_TODO_LIST): TaskListSnapshot | undefined {
  if (state.taskStore) {
    const store = state.taskStore;
    const revision = store.revision();
    if (revision === 0) return undefined;
    const tasks = store.list();
    const items = tasks.map((task): TaskListItem => {
      const item: TaskListItem = { id: task.id, content: task.subject, status: task.status };
      if (task.activeForm !== undefined) item.activeForm = task.activeForm;
      if (task.owner !== undefined) item.owner = task.owner;
      const blockers = openBlockers(task, tasks);
      if (blockers.length > 0) item.blockedBy = blockers;
      return item;
    });
    return { family: "Tasks", revision, items };
  }
  const todos = state.todoLists?.[listKey];
  if (!todos) return undefined;
  return {
    family: "TodoWrite",
    revision: todos.revision,
    items: todos.items.map((todo) => ({ content: todo.content, status: todo.status, activeForm: todo.activeForm })),
  };
}

/** The list's revision alone (cheap: no task files are read); 0 when there is no list. */
export function taskListRevision(state: TaskListHolder, listKey = MAIN_TODO_LIST): number {
  if (state.taskStore) return state.taskStore.revision();
  return state.todoLists?.[listKey]?.revision ?? 0;
}
