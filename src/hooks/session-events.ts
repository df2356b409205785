// The events of the session and its surroundings: Setup (--init, --init-only, --maintenance),
// SessionStart, SessionEnd, the shell's folder (CwdChanged), watched files (FileChanged), folders
// added, settings files changed (ConfigChange) and memory files loaded (InstructionsLoaded).
// Setup, SessionStart, CwdChanged and FileChanged hand their commands CLAUDE_ENV_FILE: what they
// export there becomes environment for the session's Bash commands.
import type { DirectoryAddedSource, InstructionsLoadedInput } from "../tool/tool-call-hooks.js";
import { createHookEnvFile } from "./env-file.js";
import type { HookDispatcher } from "./hook-dispatch.js";
import { foldContextOutcomes, watchPathsOf } from "./hook-folds.js";
import type { HookOutcome } from "./hook-output.js";
import type { SessionStartResult } from "./hook-types.js";
import { failuresOf } from "./turn-events.js";

/**
 * SessionEnd hooks hold up the exit: past this (or WARDEN_SESSIONEND_HOOKS_TIMEOUT_MS) they are
 * killed, whatever their own timeout says (Claude Code bounds them the same way).
 */
export const SESSION_END_TIMEOUT_MS = 1_500;

export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";
/** Which flag ran the Setup hooks: `--init` / `--init-only`, or `--maintenance`. */
export type SetupTrigger = "init" | "maintenance";

/** What the hooks wrote to CLAUDE_ENV_FILE, beside the failures already found. */
async function withEnvFile(
  hooks: HookDispatcher,
  envFile: ReturnType<typeof createHookEnvFile>,
  errors: string[],
): Promise<{ env?: Record<string, string>; errors: string[] }> {
  try {
    const env = await envFile.collect(hooks.baseEnv);
    return Object.keys(env).length > 0 ? { env, errors } : { errors };
  } catch (error) {
    return {
      errors: [
        ...errors,
        `CLAUDE_ENV_FILE could not be read: ${error instanceof Error ? error.message : String(error)}`,
      ],
    };
  }
}

/**
 * The session starts (matcher: the source). Plain stdout or additionalContext reaches the model;
 * what the hooks write to CLAUDE_ENV_FILE becomes environment for the session's Bash commands.
 */
export async function sessionStart(
  hooks: HookDispatcher,
  source: "startup" | "resume" | "clear" | "compact",
  signal?: AbortSignal,
  model?: string,
): Promise<SessionStartResult> {
  const envFile = createHookEnvFile();
  const outcomes = await hooks.run("SessionStart", source, { source, ...(model !== undefined && { model }) }, signal, {
    CLAUDE_ENV_FILE: envFile.path,
  });
  const additionalContext: string[] = [];
  const errors: string[] = [];
  const watchPaths = watchPathsOf(outcomes);
  if (watchPaths) hooks.announceWatchPaths(watchPaths);
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") errors.push(outcome.message);
    else if (outcome.kind === "blocking") errors.push(`SessionStart hook: ${outcome.message}`);
    else if (outcome.json?.hookSpecificOutput?.additionalContext) {
      additionalContext.push(outcome.json.hookSpecificOutput.additionalContext);
    } else if (outcome.text) {
      additionalContext.push(outcome.text);
    }
  }
  return { additionalContext, ...(await withEnvFile(hooks, envFile, errors)) };
}

/**
 * The CLI was run with --init, --init-only or --maintenance (matcher: the trigger), before the
 * session starts. Only `hookSpecificOutput.additionalContext` reaches the model (plain stdout is
 * for the person running the set-up, not context); nothing can be refused, so exit code 2 is shown
 * as an error like any failure; CLAUDE_ENV_FILE works as for SessionStart.
 */
export async function setup(
  hooks: HookDispatcher,
  trigger: SetupTrigger,
  signal?: AbortSignal,
): Promise<SessionStartResult> {
  const envFile = createHookEnvFile();
  const outcomes = await hooks.run("Setup", trigger, { trigger }, signal, { CLAUDE_ENV_FILE: envFile.path });
  const additionalContext: string[] = [];
  const errors: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") errors.push(outcome.message);
    else if (outcome.kind === "blocking") errors.push(`Setup hook: ${outcome.message}`);
    else if (outcome.json?.hookSpecificOutput?.additionalContext) {
      additionalContext.push(outcome.json.hookSpecificOutput.additionalContext);
    }
  }
  return { additionalContext, ...(await withEnvFile(hooks, envFile, errors)) };
}

/** The session ends (matcher: the reason). It cannot block; its hooks are cut off at a short bound. */
export async function sessionEnd(hooks: HookDispatcher, reason: SessionEndReason): Promise<{ errors: string[] }> {
  const fromEnv = Number(process.env.WARDEN_SESSIONEND_HOOKS_TIMEOUT_MS);
  const bound = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : SESSION_END_TIMEOUT_MS;
  return failuresOf(await hooks.run("SessionEnd", reason, { reason }, AbortSignal.timeout(bound)));
}

/** The shell's directory changed (no matcher); CLAUDE_ENV_FILE works as for SessionStart. */
export async function cwdChanged(
  hooks: HookDispatcher,
  oldCwd: string,
  newCwd: string,
  signal?: AbortSignal,
): Promise<{ env?: Record<string, string>; errors: string[] }> {
  const envFile = createHookEnvFile();
  const outcomes = await hooks.run("CwdChanged", undefined, { old_cwd: oldCwd, new_cwd: newCwd }, signal, {
    CLAUDE_ENV_FILE: envFile.path,
  });
  hooks.announceWatchPaths(watchPathsOf(outcomes), newCwd);
  return withEnvFile(hooks, envFile, failuresOf(outcomes).errors);
}

/**
 * A watched file changed on disk (matcher: its name). Nothing can be refused; CLAUDE_ENV_FILE
 * works as for SessionStart, and watchPaths replace the files watched besides the matchers'.
 */
export async function fileChanged(
  hooks: HookDispatcher,
  filePath: string,
  change: "change" | "add" | "unlink",
  name: string,
): Promise<{ env?: Record<string, string>; errors: string[] }> {
  const envFile = createHookEnvFile();
  const outcomes: HookOutcome[] = await hooks.run(
    "FileChanged",
    name,
    { file_path: filePath, event: change },
    undefined,
    { CLAUDE_ENV_FILE: envFile.path },
  );
  const watchPaths = watchPathsOf(outcomes);
  if (watchPaths) hooks.announceWatchPaths(watchPaths);
  return withEnvFile(hooks, envFile, failuresOf(outcomes).errors);
}

/** A working folder was added (no matcher); the hooks are told, nothing can refuse. */
export async function directoryAdded(
  hooks: HookDispatcher,
  directory: string,
  source: DirectoryAddedSource,
  signal?: AbortSignal,
): Promise<{ errors: string[] }> {
  return failuresOf(await hooks.run("DirectoryAdded", undefined, { directory, source }, signal));
}

/** A settings file changed (matcher: its source); exit 2 or `decision: "block"` objects to it. */
export async function configChange(
  hooks: HookDispatcher,
  source: string,
  filePath: string,
): Promise<{ blocked?: string; errors: string[] }> {
  const outcomes = await hooks.run("ConfigChange", source, { source, file_path: filePath });
  const { errors, blocked } = foldContextOutcomes(outcomes, "a ConfigChange hook blocked the change");
  return blocked !== undefined ? { blocked, errors } : { errors };
}

export async function instructionsLoaded(
  hooks: HookDispatcher,
  input: InstructionsLoadedInput,
): Promise<{ errors: string[] }> {
  return failuresOf(await hooks.run("InstructionsLoaded", input.load_reason, { ...input }));
}
