// Reminders of the session's state, re-injected before model requests: the task list (in full
// after it changed, as one line otherwise, throttled by turns; a nudge when it has gone stale; the
// suggestion to verify once three or more tasks are done) and plan mode (every turn it is on, in
// full every few turns). The state is shown again because a long conversation buries what the
// model once wrote: the current list and mode stay in front of it.
//
// Each kind is one named function from the state to a text; queueStateReminders runs them once per
// model request and queues what they return on AppState.pendingReminders, which the loop drains
// into one <system-reminder> message. The attachment registry of the context-management work is
// meant to take these functions over as kinds of its own.
import { queueReminders } from "../hooks/queue-reminders.js";
import type { AppState } from "../tool/app-state.js";
import {
  currentTaskList,
  MAIN_TODO_LIST,
  type StateReminderState,
  type TaskListItem,
  type TaskListSnapshot,
  taskListRevision,
} from "../tool/task-list.js";
import type { ToolUseContext } from "../tool/types.js";

/** A one-line reminder of the list at most this often (in model requests). */
export const TASK_LIST_SPARSE_EVERY_TURNS = 3;
/** Unchanged for this many requests with work still open: the list has gone stale. */
export const TASK_LIST_STALE_AFTER_TURNS = 10;
/** Tasks completed on the main thread before verification is suggested. */
export const VERIFY_AFTER_COMPLETED = 3;
/** The full plan-mode instructions at most this often; a one-line reminder in between. */
export const PLAN_MODE_FULL_EVERY_TURNS = 5;

type Bookkeeping = StateReminderState;

function initialBookkeeping(): Bookkeeping {
  return {
    turn: 0,
    taskList: { lastChangeTurn: 0, lastReminderTurn: 0, lastStaleTurn: 0, verificationSuggested: false },
    planMode: {},
  };
}

/**
 * Once per model request: works out which state reminders are due, records that they went out,
 * and queues their texts. The main thread's list and mode; a subagent's loop reminds it of its own
 * list only.
 */
export function queueStateReminders(context: Pick<ToolUseContext, "agentId" | "getAppState" | "setAppState">): void {
  const state = context.getAppState();
  const previous = state.stateReminders ?? initialBookkeeping();
  // A copy the reminder functions may change (two small objects; this runs before every request).
  const book: Bookkeeping = {
    turn: previous.turn + 1,
    taskList: { ...previous.taskList },
    planMode: { ...previous.planMode },
  };
  const texts: string[] = [];
  const taskList = taskListReminder(state, book, context.agentId);
  if (taskList) texts.push(taskList);
  if (context.agentId === undefined) {
    const plan = planModeReminder(state, book);
    if (plan) texts.push(plan);
  }
  context.setAppState((prev) => ({ ...prev, stateReminders: book }));
  queueReminders(context, texts);
}

// --- The task list ---

function isOpen(item: TaskListItem): boolean {
  return item.status !== "completed";
}

function itemLine(item: TaskListItem, index: number): string {
  const label = item.id !== undefined ? `#${item.id}` : `${index + 1}.`;
  const notes: string[] = [];
  if (item.owner) notes.push(`owner: ${item.owner}`);
  if (item.blockedBy?.length) notes.push(`blocked by ${item.blockedBy.map((id) => `#${id}`).join(", ")}`);
  return `${label} [${item.status}] ${item.content}${notes.length ? ` (${notes.join("; ")})` : ""}`;
}

function updateHint(list: TaskListSnapshot): string {
  return list.family === "Tasks" ? "TaskUpdate" : "TodoWrite";
}

function fullList(list: TaskListSnapshot): string {
  return list.items.map(itemLine).join("\n");
}

function progressLine(list: TaskListSnapshot): string {
  const done = list.items.filter((item) => !isOpen(item)).length;
  const active = list.items.find((item) => item.status === "in_progress");
  const now = active ? `; in progress: ${active.activeForm ?? active.content}` : "; nothing in progress";
  return `Task list: ${done} of ${list.items.length} completed${now}. Keep it current with ${updateHint(list)} as you work.`;
}

/** True when the list is closed out: everything done, enough of it, and no verification step in it. */
function verificationDue(list: TaskListSnapshot): boolean {
  const completed = list.items.filter((item) => item.status === "completed").length;
  return (
    completed >= VERIFY_AFTER_COMPLETED &&
    list.items.every((item) => !isOpen(item)) &&
    !list.items.some((item) => /verif/i.test(item.content))
  );
}

/**
 * The task-list reminder due now, if any. In order: the verification suggestion when the main
 * thread has just closed out a list of three or more; the full list after a change; a stale-list
 * nudge when nothing changed for a while; a one-line progress note every few turns.
 */
export function taskListReminder(state: AppState, book: Bookkeeping, agentId?: string): string | undefined {
  const key = agentId ?? MAIN_TODO_LIST;
  const revision = taskListRevision(state, key);
  const memory = book.taskList;
  if (revision === 0) return undefined;
  const changed = memory.shownRevision !== revision;
  if (changed) memory.lastChangeTurn = book.turn;
  const list = currentTaskList(state, key);
  if (!list) return undefined;
  const open = list.items.some(isOpen);
  if (open) memory.verificationSuggested = false;

  const sent = (text: string) => {
    memory.shownRevision = revision;
    memory.lastReminderTurn = book.turn;
    return text;
  };
  if (!open) {
    memory.shownRevision = revision;
    if (agentId !== undefined || memory.verificationSuggested || !verificationDue(list)) return undefined;
    memory.verificationSuggested = true;
    const done = list.items.length;
    return sent(
      `All ${done} tasks of the list are completed. Before you report the work as done, have it verified independently: run a verification agent (the Agent tool) if you have one; otherwise check it yourself (run the tests and the build, read the whole diff) and say what you checked.`,
    );
  }
  if (changed) {
    return sent(
      `The task list changed. It now reads:\n${fullList(list)}\nKeep exactly one item in progress and mark each completed as soon as it is done.`,
    );
  }
  const quietFor = book.turn - memory.lastChangeTurn;
  if (quietFor >= TASK_LIST_STALE_AFTER_TURNS && book.turn - memory.lastStaleTurn >= TASK_LIST_STALE_AFTER_TURNS) {
    memory.lastStaleTurn = book.turn;
    return sent(
      `The task list has not changed for ${quietFor} turns. If the work has moved on, update it now with ${updateHint(list)}: mark finished items completed, add what you found, remove what no longer applies. It reads:\n${fullList(list)}`,
    );
  }
  if (book.turn - memory.lastReminderTurn >= TASK_LIST_SPARSE_EVERY_TURNS) return sent(progressLine(list));
  return undefined;
}

// --- Plan mode ---

export function planModeInstructions(planFilePath: string | undefined): string {
  const planFile = planFilePath
    ? `The one exception is the plan file, ${planFilePath}: write your plan there (Write creates it, Edit refines it).`
    : "";
  return [
    `Plan mode is on. Explore and design, but do not change anything yet: no edits, no writes, no commands that change the system, no commits. ${planFile}`.trim(),
    "1. Read the code the task touches; look for what already exists that you can reuse.",
    "2. Settle open questions; ask the user (AskUserQuestion) when a choice is theirs.",
    "3. Write the plan: the changes file by file, their order, and how to verify them (the tests to run).",
    "4. Call ExitPlanMode to have the plan approved (allowedPrompts: Bash commands the work will need).",
    "Do not implement anything before the plan is approved.",
  ].join("\n");
}

/** Every request while plan mode is on: the full instructions every few turns, one line between. */
export function planModeReminder(state: AppState, book: Bookkeeping): string | undefined {
  const permissions = state.toolPermissionContext;
  if (permissions.mode !== "plan") {
    book.planMode = {};
    return undefined;
  }
  const last = book.planMode.lastFullTurn;
  if (last === undefined || book.turn - last >= PLAN_MODE_FULL_EVERY_TURNS) {
    book.planMode.lastFullTurn = book.turn;
    return planModeInstructions(permissions.planFilePath);
  }
  const where = permissions.planFilePath ? ` except the plan file ${permissions.planFilePath}` : "";
  return `Plan mode is still on: change nothing${where}. Call ExitPlanMode when the plan is ready.`;
}
