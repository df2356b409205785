// The session's shell: which shell runs commands, the environment they get (captured once, so a
// command sees the same variables on the first call and the hundredth), and the working directory
// that a `cd` carries from one call to the next. Shell state beyond the directory (variables set
// with export, functions, aliases) does not carry over: each command is a fresh shell.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { isDirectory, isExecutable } from "../../fs/path-kind.js";
import type { ShellSnapshot } from "../../tool/shell-state.js";
import type { ToolUseContext } from "../../tool/types.js";

/** The user's shell when it is bash or zsh (both run our wrapper the same way), else bash. */
export function chooseShell(env: NodeJS.ProcessEnv): string {
  const preferred = env.SHELL;
  if (preferred && /(^|\/)(bash|zsh)$/.test(preferred) && isExecutable(preferred)) return preferred;
  for (const candidate of ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"]) {
    if (isExecutable(candidate)) return candidate;
  }
  return "bash";
}

function captureEnvironment(
  source: NodeJS.ProcessEnv,
  sessionEnv: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) if (value !== undefined) env[key] = value;
  Object.assign(env, sessionEnv);
  // Nothing may stop to wait for a human: no editor for git commit, no pager for git log.
  env.GIT_EDITOR = "true";
  env.GIT_PAGER = "cat";
  env.PAGER = "cat";
  env.GIT_TERMINAL_PROMPT = "0";
  // Lets scripts and git hooks know an agent is running them.
  env.WARDEN = "1";
  return env;
}

export function shellSnapshot(context: ToolUseContext): ShellSnapshot {
  const existing = context.getAppState().bashShellSnapshot;
  if (existing) return existing;
  const state = context.getAppState();
  const snapshot = { shellPath: chooseShell(process.env), env: captureEnvironment(process.env, state.toolEnv) };
  context.setAppState((state) => (state.bashShellSnapshot ? state : { ...state, bashShellSnapshot: snapshot }));
  return context.getAppState().bashShellSnapshot ?? snapshot;
}

export interface ShellCwd {
  cwd: string;
  /** Set when the remembered directory vanished and the session's start directory is used instead. */
  resetNote?: string;
}

/** The directory the next command runs in (read-only: safe to call from checkPermissions). */
export function currentShellCwd(context: ToolUseContext): ShellCwd {
  const remembered = context.getAppState().bashCwd;
  if (!remembered || remembered === context.options.cwd) return { cwd: context.options.cwd };
  if (isDirectory(remembered)) return { cwd: remembered };
  return {
    cwd: context.options.cwd,
    resetNote: `The previous working directory ${remembered} no longer exists; the shell is back in ${context.options.cwd}.`,
  };
}

export function setShellCwd(context: ToolUseContext, cwd: string): void {
  context.setAppState((state) => (state.bashCwd === cwd ? state : { ...state, bashCwd: cwd }));
}

/** The session's temp folder: TMPDIR in the sandbox, home of the cwd-capture files. */
export function sessionTempDir(context: ToolUseContext): string {
  const dir = join(context.options.sessionDir, "tmp");
  mkdirSync(dir, { recursive: true });
  return dir;
}
