// EnterWorktree: a new git worktree on its own branch, and the session moved into it (file tools
// and Bash resolve paths there; what the model read in the old checkout must be read again).
import { randomBytes } from "node:crypto";
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { makeWorktree } from "../worktree-shared/hooked-worktree.js";
import { ENTER_WORKTREE_PROMPT, ENTER_WORKTREE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    name: z.string().min(1).max(64).optional().describe("Name of the worktree (default: a random one)"),
  }),
);

type EnterWorktreeInput = z.infer<typeof inputSchema>;

export interface EnterWorktreeResult {
  path: string;
  branch: string;
}

export const EnterWorktreeTool = buildTool<EnterWorktreeInput, EnterWorktreeResult>({
  name: ENTER_WORKTREE_TOOL_NAME,
  searchHint: "git worktree isolated checkout branch",
  shouldDefer: true,
  maxResultSizeChars: 10_000,
  inputSchema,
  prompt: async () => ENTER_WORKTREE_PROMPT,
  description: async () => "Create a git worktree and work in it",
  // It moves the whole session's working directory: never a subagent's (they get isolation instead).
  subagentAccess: "none",
  // A new branch and a folder inside the project, which nothing else uses: nothing is lost or exposed.
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),

  async validateInput(_input, context) {
    const current = context.getAppState().worktree;
    if (current) {
      return {
        result: false,
        message: `The session already works in the worktree ${current.path}; leave it with ExitWorktree first.`,
        errorCode: 1,
      };
    }
    return { result: true };
  },

  async call(input, context) {
    const originalCwd = context.getAppState().bashCwd ?? context.options.cwd;
    const name = input.name ?? `wt-${randomBytes(3).toString("hex")}`;
    const worktree = await makeWorktree(context, originalCwd, name, context.abortController.signal);
    context.setAppState((state) => ({
      ...state,
      worktree: { ...worktree, originalCwd: context.options.cwd },
      bashCwd: worktree.path,
    }));
    // Reads of the old checkout say nothing about these files.
    for (const path of context.readFileState.keys()) context.readFileState.delete(path);
    return {
      data: { path: worktree.path, branch: worktree.branch },
      contextModifier: (next) => ({ ...next, options: { ...next.options, cwd: worktree.path } }),
    };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Created the worktree ${output.path} on branch ${output.branch}. The session now works there; the main checkout is untouched. Leave it with ExitWorktree.`,
  }),
});
