// A foreground command in the editor's terminal (ACP `terminal/*`), where the person watches it
// run inside the tool call. Only commands that would run unsandboxed anyway come here (the Bash
// tool decides): the editor spawns the process, so Warden's sandbox cannot wrap it. Timeout and
// cancel work as for a local command: the terminal is killed, what it printed is read, and it is
// always released.
import type { EditorExitStatus, EditorTerminal, EditorTerminals } from "../../tool/editor.js";
import type { ShellSnapshot } from "../../tool/shell-state.js";
import { terminalScript } from "./launch.js";
import type { OutputCapture } from "./output-capture.js";
import type { ForegroundResult } from "./run-foreground.js";

/** The editor keeps the last this many bytes of output; the model's view is cut far below it anyway. */
export const EDITOR_OUTPUT_BYTE_LIMIT = 1024 * 1024;

export interface EditorRunOptions {
  terminals: EditorTerminals;
  command: string;
  cwd: string;
  cwdFile?: string;
  snapshot: ShellSnapshot;
  timeoutMs: number;
  signal: AbortSignal;
  capture: OutputCapture;
  toolCall?: { id: string; name: string; input: Record<string, unknown> };
}

/**
 * The variables the command needs beyond the editor's environment: those the session sets or
 * changes (no pager, no editor for git, WARDEN=1, settings `env`). The rest the editor's terminal
 * has already, as the editor started Warden with it.
 */
function envDelta(snapshotEnv: Record<string, string>): Record<string, string> {
  const delta: Record<string, string> = {};
  for (const [key, value] of Object.entries(snapshotEnv)) if (process.env[key] !== value) delta[key] = value;
  return delta;
}

function signalOf(status: EditorExitStatus | undefined): NodeJS.Signals | null {
  const signal = status?.signal;
  return signal && /^SIG[A-Z0-9]+$/.test(signal) ? (signal as NodeJS.Signals) : null;
}

export async function runInEditorTerminal(options: EditorRunOptions): Promise<ForegroundResult> {
  const startedAt = Date.now();
  let terminal: EditorTerminal;
  try {
    terminal = await options.terminals.create({
      command: options.snapshot.shellPath,
      args: ["-c", terminalScript(options.command, options.cwd, options.cwdFile)],
      cwd: options.cwd,
      env: envDelta(options.snapshot.env),
      outputByteLimit: EDITOR_OUTPUT_BYTE_LIMIT,
      ...(options.toolCall && { toolCall: options.toolCall }),
    });
  } catch (error) {
    throw new Error(
      `the editor could not open a terminal for the command (${error instanceof Error ? error.message : String(error)}); the command was not run.`,
    );
  }
  let timedOut = false;
  let interrupted = false;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= terminal.kill().catch(() => undefined);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = () => {
    interrupted = true;
    stop();
  };
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });
  try {
    let exit = await terminal.waitForExit();
    if (stopping) await stopping;
    const final = await terminal.output();
    exit = final.exitStatus ?? exit;
    options.capture.write(Buffer.from(final.output));
    if (final.truncated) {
      options.capture.write(
        Buffer.from(
          `\n(The editor kept only the last ${EDITOR_OUTPUT_BYTE_LIMIT} bytes of this command's output; the start is missing.)\n`,
        ),
      );
    }
    return {
      exitCode: exit.exitCode,
      signal: signalOf(exit),
      leftoverProcesses: false,
      output: options.capture.finish(),
      timedOut,
      interrupted: interrupted && !timedOut,
      durationMs: Date.now() - startedAt,
    };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
    await terminal.release().catch(() => undefined);
  }
}
