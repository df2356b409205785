// A worktree for EnterWorktree or an isolated agent, with the session's worktree hooks: when
// WorktreeCreate hooks are configured they make it (Warden runs no git for it) and say where;
// otherwise git does (./git-worktree.ts). Giving it up runs the WorktreeRemove hooks; git removes
// only what git made.
import { isAbsolute } from "node:path";
import type { AppState } from "../../tool/app-state.js";
import { checkWorktreeName, createWorktree, type GitWorktree, removeWorktree } from "./git-worktree.js";

type HookSource = { getAppState(): AppState };

export async function makeWorktree(
  context: HookSource,
  cwd: string,
  name: string,
  signal?: AbortSignal,
): Promise<GitWorktree> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("WorktreeCreate")) return createWorktree(cwd, name);
  const problem = checkWorktreeName(name);
  if (problem) throw new Error(problem);
  const made = await hooks.worktreeCreate(name, signal);
  if (made.path === undefined) throw new Error(`the worktree was not made: ${made.failure ?? "no path"}`);
  if (!isAbsolute(made.path)) {
    throw new Error(`the worktree was not made: the WorktreeCreate hook printed "${made.path}", not an absolute path`);
  }
  return {
    path: made.path,
    branch: `(made by a WorktreeCreate hook)`,
    baseCommit: "",
    repoRoot: cwd,
    madeByHook: true,
  };
}

/** Gives the worktree up: git removes its own (folder and branch), then the WorktreeRemove hooks run. */
export async function dropWorktree(
  context: HookSource,
  worktree: GitWorktree,
  signal?: AbortSignal,
): Promise<string[]> {
  if (!worktree.madeByHook) await removeWorktree(worktree);
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("WorktreeRemove")) return [];
  return (await hooks.worktreeRemove(worktree.path, signal)).errors;
}
