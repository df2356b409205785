// The task list shown to the model again, as an attachment the list tools bring (Tool.attachments):
// in full after a change, one line every few turns, a nudge when it has gone stale while work is
// open, and the suggestion to verify once the main thread has closed out a list of three or more.
// A long conversation buries what the model once wrote; the current list stays in front of it.
// Each session keeps its own bookkeeping in AppState (the tools, and so this source, are shared by
// every session of the process).
import type { AppState } from "../../tool/app-state.js";
import {
  currentTaskList,
  MAIN_TODO_LIST,
  type TaskListItem,
  type TaskListReminderState,
  type TaskListSnapshot,
  taskListRevision,
} from "../../tool/task-list.js";
import type { AttachmentSource } from "../../tool/types.js";

/** A one-line reminder of the list at most this often (in model requests). */
export const TASK_LIST_SPARSE_EVERY_TURNS = 3;
/** Unchanged for this many requests with work still open: the list has gone stale. */
export const TASK_LIST_STALE_AFTER_TURNS = 10;
/** Tasks completed on the main thread before verification is suggested. */
export const VERIFY_AFTER_COMPLETED = 3;

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

export function fullList(list: TaskListSnapshot): string {
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
 * The reminder due at `turn`, if any, and the bookkeeping after it. In order: the verification
 * suggestion when the main thread has just closed out a list of three or more; the full list after
 * a change; a stale-list nudge when nothing changed for a while; a one-line note every few turns.
 */
export function taskListReminder(
  state: AppState,
  turn: number,
  agentId: string | undefined,
): { text?: string; memory?: TaskListReminderState } {
  const key = agentId ?? MAIN_TODO_LIST;
  const revision = taskListRevision(state, key);
  if (revision === 0) return {};
  const list = currentTaskList(state, key);
  if (!list) return {};
  const memory: TaskListReminderState = {
    lastChangeTurn: 0,
    lastReminderTurn: 0,
    lastStaleTurn: 0,
    verificationSuggested: false,
    ...state.taskListReminders?.[key],
  };
  const changed = memory.shownRevision !== revision;
  if (changed) memory.lastChangeTurn = turn;
  const open = list.items.some(isOpen);
  if (open) memory.verificationSuggested = false;
  const sent = (text: string) => {
    memory.shownRevision = revision;
    memory.lastReminderTurn = turn;
    return { text, memory };
  };

  if (!open) {
    memory.shownRevision = revision;
    if (agentId !== undefined || memory.verificationSuggested || !verificationDue(list)) return { memory };
    memory.verificationSuggested = true;
    return sent(
      `All ${list.items.length} tasks of the list are completed. Before you report the work as done, have it verified independently: run a verification agent (the Agent tool) if you have one; otherwise check it yourself (run the tests and the build, read the whole diff) and say what you checked.`,
    );
  }
  if (changed) {
    return sent(
      `The task list changed. It now reads:\n${fullList(list)}\nKeep exactly one item in progress and mark each completed as soon as it is done.`,
    );
  }
  const quietFor = turn - memory.lastChangeTurn;
  if (quietFor >= TASK_LIST_STALE_AFTER_TURNS && turn - memory.lastStaleTurn >= TASK_LIST_STALE_AFTER_TURNS) {
    memory.lastStaleTurn = turn;
    return sent(
      `The task list has not changed for ${quietFor} turns. If the work has moved on, update it now with ${updateHint(list)}: mark finished items completed, add what you found, remove what no longer applies. It reads:\n${fullList(list)}`,
    );
  }
  if (turn - memory.lastReminderTurn >= TASK_LIST_SPARSE_EVERY_TURNS) return sent(progressLine(list));
  return { memory };
}

/**
 * The source a family of list tools brings: `todo_reminder` for TodoWrite, `task_reminder` for the
 * Tasks family (one object shared by its four tools, so it is asked once per request).
 */
function taskListReminderSource(kind: "todo_reminder" | "task_reminder"): AttachmentSource {
  return {
    kind,
    collect({ context, turn }) {
      const key = context.agentId ?? MAIN_TODO_LIST;
      const { text, memory } = taskListReminder(context.getAppState(), turn, context.agentId);
      if (memory) {
        context.setAppState((prev) => ({ ...prev, taskListReminders: { ...prev.taskListReminders, [key]: memory } }));
      }
      return text ? [{ text }] : undefined;
    },
    afterCompaction({ context }) {
      const list = currentTaskList(context.getAppState(), context.agentId ?? MAIN_TODO_LIST);
      if (!list || list.items.length === 0) return undefined;
      return `The task list, as it stands:\n${fullList(list)}`;
    },
  };
}

export const todoReminderSource = taskListReminderSource("todo_reminder");
export const taskReminderSource = taskListReminderSource("task_reminder");
