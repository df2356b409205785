// The model-facing text of TaskCreate.
export const TASK_CREATE_TOOL_NAME = "TaskCreate";

export const TASK_CREATE_PROMPT = `Adds a task to this session's task list, which the user sees as your progress (and which teammates share). Returns the new task's id.

Use the list for work of three or more steps, or when the user asks for several things; skip it for one quick step or a question.
- subject: what to do, in the imperative ("Fix the login redirect").
- description: what done means, with the details a reader needs.
- activeForm: the subject while it happens ("Fixing the login redirect").
New tasks start pending. Use TaskUpdate to start one (in_progress), finish it (completed), set dependencies (addBlocks / addBlockedBy) or remove it (status "deleted").`;
