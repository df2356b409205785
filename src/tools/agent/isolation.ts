// Isolation "worktree": the child works in its own checkout, and only there. Its working
// directories are the worktree and those of the parent's that have nothing to do with the parent's
// checkout; the checkout itself (which holds the worktree, under .worktrees/) is outside them. So
// the child's file tools and Bash reach the parent's files only as they reach any folder outside
// the workspace: asked (refused in a headless run), denied by the rules that deny, never allowed by
// a mode that allows edits inside the workspace. An absolute path into the parent's checkout, which
// the child may well have been given, is no way around its isolation.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { resolveRealPath } from "../../fs/real-path.js";
import type { Message } from "../../messages/types.js";
import type { SubagentRequest, ToolUseContext } from "../../tool/types.js";

/** What isolation needs of a worktree: where it is, and the checkout it was made from. */
export interface IsolatingWorktree {
  path: string;
  repoRoot: string;
}

function isWithin(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** Both spellings (as given, and where links lead), so a link to the checkout counts as the checkout. */
function spellings(path: string): string[] {
  return [...new Set([resolve(path), resolveRealPath(path)])];
}

/**
 * The child's working directories: the worktree first, then each of the parent's that neither
 * lies inside the parent's checkout nor contains it (a folder holding the checkout would hand the
 * checkout back).
 */
export function isolatedWorkingDirectories(parent: readonly string[], worktree: IsolatingWorktree): string[] {
  const checkout = spellings(worktree.repoRoot);
  const apart = parent.filter(
    (dir) => !spellings(dir).some((d) => checkout.some((root) => isWithin(root, d) || isWithin(d, root))),
  );
  return [worktree.path, ...apart.filter((dir) => resolve(dir) !== resolve(worktree.path))];
}

/** Points the child at its worktree: its cwd, and working directories that leave the parent's checkout out. */
export function confineToWorktree(
  request: SubagentRequest,
  worktree: IsolatingWorktree,
  context: ToolUseContext,
): void {
  request.cwd = worktree.path;
  request.workingDirectories = isolatedWorkingDirectories(
    context.getAppState().toolPermissionContext.workingDirectories,
    worktree,
  );
  // Outside its working directories the checkout is reached only as any outside folder is: but a
  // shell in bypass mode writes outside folders freely, so the checkout is named as one it may not.
  request.confinedFrom = spellings(worktree.repoRoot);
}

/**
 * A fork inherits a conversation that names the parent's paths; isolated, it must know that its
 * files are the worktree's, or it would be refused (or asked for) every path it read above.
 */
export function tellForkOfWorktree(fork: { messages: Message[] }, worktree: IsolatingWorktree): void {
  const directive = fork.messages.at(-1);
  if (directive?.role !== "user" || typeof directive.content === "string") return;
  directive.content.push({
    type: "text",
    text:
      `You work in an isolated git worktree at ${worktree.path}: the files the conversation above names under ` +
      `${worktree.repoRoot} are the same files under ${worktree.path}. Read and change them there; the ` +
      `original checkout is outside your working directories.`,
  });
}
