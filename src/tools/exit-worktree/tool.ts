// ExitWorktree: back to the main checkout, keeping the worktree or removing it. Removing refuses
// while the worktree holds work of its own (uncommitted files, commits) unless told to discard it,
// and says how much that is.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { hasWork, type WorktreeChanges, worktreeChanges } from "../worktree-shared/git-worktree.js";
import { dropWorktree } from "../worktree-shared/hooked-worktree.js";
import { EXIT_WORKTREE_PROMPT, EXIT_WORKTREE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    action: z.enum(["keep", "remove"]),
    discard_changes: z.boolean().optional().describe("With remove: discard uncommitted files and commits"),
  }),
);

type ExitWorktreeInput = z.infer<typeof inputSchema>;

export interface ExitWorktreeResult {
  action: "keep" | "remove";
  path: string;
  branch: string;
  returnedTo: string;
  changes: WorktreeChanges;
}

function describeChanges(changes: WorktreeChanges): string {
  return `${changes.uncommittedFiles} uncommitted file(s) and ${changes.commits} commit(s)`;
}

export const ExitWorktreeTool = buildTool<ExitWorktreeInput, ExitWorktreeResult>({
  name: EXIT_WORKTREE_TOOL_NAME,
  searchHint: "leave git worktree keep remove",
  shouldDefer: true,
  maxResultSizeChars: 10_000,
  inputSchema,
  prompt: async () => EXIT_WORKTREE_PROMPT,
  description: async (input) => (input?.action === "remove" ? "Remove the worktree" : "Leave the worktree"),
  subagentAccess: "none",
  isDestructive: (input) => input.action === "remove" && input.discard_changes === true,
  // Leaving, or removing what holds no work, loses nothing; discarding work asks like any other loss.
  checkPermissions: async (input) =>
    input.action === "remove" && input.discard_changes === true
      ? { behavior: "ask", message: "Remove the worktree and discard its uncommitted files and commits?" }
      : { behavior: "allow", updatedInput: input },

  async validateInput(_input, context) {
    if (!context.getAppState().worktree) {
      return { result: false, message: "The session is not in a worktree (EnterWorktree was not used).", errorCode: 1 };
    }
    return { result: true };
  },

  async call(input, context) {
    const worktree = context.getAppState().worktree;
    if (!worktree) throw new Error("The session is not in a worktree.");
    const changes = await worktreeChanges(worktree);
    if (input.action === "remove") {
      if (hasWork(changes) && !input.discard_changes) {
        throw new Error(
          `The worktree ${worktree.path} has ${describeChanges(changes)} that removing would discard. ` +
            'Commit or keep them (action "keep"), or pass discard_changes: true once the user agrees.',
        );
      }
      await dropWorktree(context, worktree, context.abortController.signal);
    }
    const returnedTo = worktree.originalCwd;
    context.setAppState((state) => ({ ...state, worktree: undefined, bashCwd: returnedTo }));
    for (const path of context.readFileState.keys()) context.readFileState.delete(path);
    return {
      data: { action: input.action, path: worktree.path, branch: worktree.branch, returnedTo, changes },
      contextModifier: (next) => ({ ...next, options: { ...next.options, cwd: returnedTo } }),
    };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content:
      output.action === "remove"
        ? `Removed the worktree ${output.path} and its branch ${output.branch} (${describeChanges(output.changes)} discarded). Back in ${output.returnedTo}.`
        : `Left the worktree ${output.path} (branch ${output.branch}, ${describeChanges(output.changes)}); it is kept. Back in ${output.returnedTo}.`,
  }),
});
