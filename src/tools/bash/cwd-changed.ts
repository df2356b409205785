// CwdChanged hooks after a command that moved the shell (`cd`): what they export through
// CLAUDE_ENV_FILE (direnv-style set-ups) becomes environment for the session's later commands.
import type { ToolUseContext } from "../../tool/types.js";
import { currentShellCwd } from "./shell-session.js";

export async function runCwdChangedHooks(context: ToolUseContext, before: string): Promise<void> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("CwdChanged")) return;
  const after = currentShellCwd(context).cwd;
  if (after === before) return;
  const result = await hooks.cwdChanged(before, after, context.abortController.signal);
  const env = result.env;
  if (!env) return;
  // The shell's environment is captured once; dropping the capture makes the next command see these.
  context.setAppState((state) => ({ ...state, toolEnv: { ...state.toolEnv, ...env }, bashShellSnapshot: undefined }));
}
