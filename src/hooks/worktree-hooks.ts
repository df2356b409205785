// WorktreeCreate and WorktreeRemove (Claude Code's hooks reference): with WorktreeCreate hooks
// configured they make the worktree instead of git (for a repository that is not git, or a
// layout of one's own); the path they print is where the session or agent works. WorktreeRemove
// hooks clean up when that worktree is given up. Neither event has a matcher.
import type { HookOutcome } from "./hook-output.js";

/** Where the WorktreeCreate hooks made the worktree, or why there is none (a worktree is never half made). */
export function foldWorktreeCreate(outcomes: readonly HookOutcome[]): { path?: string; failure?: string } {
  const problems: string[] = [];
  let path: string | undefined;
  for (const outcome of outcomes) {
    if (outcome.kind !== "success") {
      problems.push(outcome.message);
      continue;
    }
    const given = outcome.json
      ? outcome.json.hookSpecificOutput?.worktreePath
      : outcome.text.split("\n").find((line) => line.trim() !== "");
    if (typeof given === "string" && given.trim() !== "") path ??= given.trim();
  }
  if (problems.length > 0) return { failure: problems.join("\n") };
  if (path === undefined) return { failure: "the WorktreeCreate hooks printed no path for the worktree" };
  return { path };
}
