// The model-facing text of TaskGet.
export const TASK_GET_TOOL_NAME = "TaskGet";

export const TASK_GET_PROMPT = `Shows one task of the task list in full: subject, description, status, owner, dependencies and metadata.

- taskId: the task's id, as TaskCreate or TaskList gave it ("3").
Read a task before you start it, and check that the tasks it is blocked by are completed.`;
