// How the Task tools show tasks to the model: one line per task in a list, every field for one.
import { openBlockers, type TaskRecord } from "../../tool/task-list.js";

const ids = (list: readonly string[]) => list.map((id) => `#${id}`).join(", ");

/** `#2 [in_progress] Run the tests (owner: ana; blocked by #1)`: blocked only by blockers still open in `tasks`. */
export function taskLine(task: TaskRecord, tasks: readonly TaskRecord[]): string {
  const notes: string[] = [];
  if (task.owner) notes.push(`owner: ${task.owner}`);
  const blockers = openBlockers(task, tasks);
  if (blockers.length > 0) notes.push(`blocked by ${ids(blockers)}`);
  return `#${task.id} [${task.status}] ${task.subject}${notes.length ? ` (${notes.join("; ")})` : ""}`;
}

/** Every field of one task; "Blocked by" names `blockers`, those still open (openBlockers), the done ones apart. */
export function taskDetails(task: TaskRecord, blockers: readonly string[]): string {
  const lines = [`Task #${task.id}: ${task.subject}`, `Status: ${task.status}`];
  if (task.activeForm) lines.push(`Active form: ${task.activeForm}`);
  if (task.owner) lines.push(`Owner: ${task.owner}`);
  if (blockers.length > 0) lines.push(`Blocked by: ${ids(blockers)}`);
  const done = task.blockedBy.filter((id) => !blockers.includes(id));
  if (done.length > 0) lines.push(`Was blocked by (completed): ${ids(done)}`);
  if (task.blocks.length > 0) lines.push(`Blocks: ${ids(task.blocks)}`);
  if (task.metadata && Object.keys(task.metadata).length > 0) lines.push(`Metadata: ${JSON.stringify(task.metadata)}`);
  lines.push("", task.description || "(no description)");
  return lines.join("\n");
}

/** The validation message for an id that names no task. */
export function unknownTaskMessage(id: string, known: readonly TaskRecord[]): string {
  const list = known.length ? ` Existing tasks: ${known.map((t) => `#${t.id}`).join(", ")}.` : " The list is empty.";
  return `There is no task #${id}.${list} Use TaskList to see the list.`;
}
