// The model-facing text of TaskUpdate.
export const TASK_UPDATE_TOOL_NAME = "TaskUpdate";

export const TASK_UPDATE_PROMPT = `Changes a task of the task list.

- status: in_progress when you start it (one at a time), completed as soon as it is fully done (not with failing tests or partial work), "deleted" to remove it.
- subject, description, activeForm: rewrite them when the task changed.
- addBlocks / addBlockedBy: task ids this one blocks / waits for.
- owner: the agent working on it.
- metadata: keys to merge in; a key set to null is removed.
Mark tasks completed one by one as you finish them, then use TaskList to pick the next.`;
