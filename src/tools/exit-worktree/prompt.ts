// The model-facing text of ExitWorktree.
export const EXIT_WORKTREE_TOOL_NAME = "ExitWorktree";

export const EXIT_WORKTREE_PROMPT = `Leaves the worktree entered with EnterWorktree and returns the session to the main checkout.

- action "keep": the worktree and its branch stay (to review or merge later).
- action "remove": the worktree and its branch are deleted. Refused while it has uncommitted files or commits of its own (the refusal says how many) unless discard_changes is true; ask the user before discarding work.`;
