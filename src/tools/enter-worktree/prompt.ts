// The model-facing text of EnterWorktree.
export const ENTER_WORKTREE_TOOL_NAME = "EnterWorktree";

export const ENTER_WORKTREE_PROMPT = `Creates a git worktree (a second checkout of the repository on a new branch, worktree/<name>, in .worktrees/<name>) and moves this session into it: file tools and Bash work there from now on, the main checkout stays untouched. Use it when the user asks to work in a worktree or on an isolated copy.

- name (optional): the worktree's name; a random one by default.
- Files read before must be read again there. Leave with ExitWorktree (keep it, or remove it).`;
