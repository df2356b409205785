// The model-facing text of TodoWrite. Kept short on purpose: TodoWrite is sent in every request
// of a headless session, and the first request stays within its 20 KB budget.
export const TODO_WRITE_TOOL_NAME = "TodoWrite";

export const TODO_WRITE_PROMPT = `Keeps this session's task list, which the user sees as your progress. Each call replaces the whole list.

Use it for work of three or more steps, or when the user asks for several things; skip it for one quick step or a question.
- Write the list as soon as you understand the work; add items you discover.
- Keep exactly one item in_progress while you work. Mark it completed as soon as it is done (not in batches), then start the next.
- Only mark completed what is fully done: with failing tests or partial work keep it in_progress and add an item for the blocker.
- Remove items that no longer apply.
- content says what to do ("Run the tests"); activeForm says it while it happens ("Running the tests").`;
