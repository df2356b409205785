// The model-facing text of TaskList.
export const TASK_LIST_TOOL_NAME = "TaskList";

export const TASK_LIST_PROMPT = `Lists every task of the task list: id, status, subject, owner and what blocks it.

Use it to pick the next task (pending, not blocked, no other owner; lowest id first), after finishing one, and to check the overall progress. Use TaskGet for a task's description.`;
