// The directory a relative path in a tool's input means: where the session's shell is now (a `cd`
// in one Bash command carries over, EnterWorktree moves it), else where the session started. One
// answer for every tool, so `Read("src/a.ts")` after `cd packages/web` reads the file the shell
// would, and Glob and Grep show their results relative to the same place.
import type { ToolUseContext } from "./types.js";

export function sessionWorkingDirectory(context: Pick<ToolUseContext, "getAppState" | "options">): string {
  return context.getAppState().bashCwd ?? context.options.cwd;
}
