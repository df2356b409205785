// The UI's entry: renders the trust question and then the session with ink, on the terminal the
// CLI hands over (with the keys typed before ink had loaded), and resolves with the exit code.
import { render } from "ink";
import type { WorkspaceTrust } from "../config/trust/index.js";
import { App } from "./app/App.js";
import type { OpenSession, SessionHandle } from "./app/session-handle.js";
import { builtinCommands } from "./commands/builtins.js";
import { ExternalImportsPrompt } from "./dialogs/ExternalImportsPrompt.js";
import type { ElicitationQueue } from "./dialogs/elicitation-queue.js";
import type { PermissionQueue } from "./dialogs/permission-queue.js";
import type { SamplingQueue } from "./dialogs/sampling-queue.js";
import { TrustPrompt } from "./dialogs/TrustPrompt.js";
import { keySourceFor } from "./input/use-keys.js";
import { TranscriptModel } from "./transcript/transcript-model.js";

export type { MentionOutcome, OpenSession, OpenSessionOptions, SessionHandle } from "./app/session-handle.js";
export type { CustomCommandInfo } from "./commands/custom-command-info.js";
export { ElicitationQueue } from "./dialogs/elicitation-queue.js";
export { PermissionQueue } from "./dialogs/permission-queue.js";
export { SamplingQueue } from "./dialogs/sampling-queue.js";

export interface Terminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

const renderOptions = (terminal: Terminal) => ({
  stdin: terminal.stdin,
  stdout: terminal.stdout,
  exitOnCtrlC: false,
  patchConsole: false,
  // ink holds every redraw to 30 a second by default, so a key typed just after a redraw waited up
  // to 33 ms to be echoed. Streaming output is held to one redraw a frame by the transcript model
  // instead, so ink may draw each key at once.
  // (ink's incrementalRendering, which rewrites only changed lines, left stale lines on screen
  // when the status line changed: tried and left off.)
  maxFps: 1000,
});

/** Asks whether to trust the folder; true once the person said yes. */
export function askWorkspaceTrust(terminal: Terminal, trust: WorkspaceTrust): Promise<boolean> {
  return new Promise((resolve) => {
    const instance = render(
      <TrustPrompt
        trust={trust}
        onAnswer={(trusted) => {
          // Answered: the question leaves the screen instead of staying above the session.
          instance.clear();
          instance.unmount();
          resolve(trusted);
        }}
      />,
      renderOptions(terminal),
    );
  });
}

/** Asks whether the project's memory files may import `files` from outside it; true once the person said yes. */
export function askExternalMemoryImports(
  terminal: Terminal,
  project: string,
  files: readonly string[],
): Promise<boolean> {
  return new Promise((resolve) => {
    const instance = render(
      <ExternalImportsPrompt
        project={project}
        files={files}
        onAnswer={(approved) => {
          // Answered: the question leaves the screen instead of staying above the session.
          instance.clear();
          instance.unmount();
          resolve(approved);
        }}
      />,
      renderOptions(terminal),
    );
  });
}

export interface SessionUiOptions {
  terminal: Terminal;
  /** The session's working directory (paths are shown relative to it). */
  cwd: string;
  session: Promise<SessionHandle>;
  openSession: OpenSession;
  permissions: PermissionQueue;
  elicitations: ElicitationQueue;
  samplings: SamplingQueue;
  earlyInput: string;
  initialPrompt?: string;
  /** A slash command run as if typed first (`warden -r`: "/resume"). */
  initialCommand?: string;
  /** Called with each session the UI switches to (so the CLI closes the right one at the end). */
  onHandleChange?(handle: SessionHandle): void;
}

/** Why the session never started; thrown once the UI's frame has left the screen. */
export class SessionStartFailed extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = "SessionStartFailed";
  }
}

/**
 * Runs the session's UI until the person exits; resolves with the exit code. Rejects with
 * SessionStartFailed when the session cannot start, after taking the frame (prompt and "starting…"
 * status line) off the screen, so the caller's error is the last thing the terminal shows.
 */
export function runSessionUi(options: SessionUiOptions): Promise<number> {
  let current: SessionHandle | undefined;
  const transcript = new TranscriptModel(() => current?.engine.tools ?? [], options.cwd);
  options.session.then(
    (handle) => {
      current = handle;
    },
    () => undefined,
  );
  const commands = builtinCommands();
  return new Promise((resolve, reject) => {
    const instance = render(
      <App
        cwd={options.cwd}
        session={options.session}
        openSession={options.openSession}
        transcript={transcript}
        permissions={options.permissions}
        elicitations={options.elicitations}
        samplings={options.samplings}
        commands={commands}
        earlyInput={options.earlyInput}
        initialPrompt={options.initialPrompt}
        initialCommand={options.initialCommand}
        onHandleChange={(handle) => {
          current = handle;
          options.onHandleChange?.(handle);
        }}
        onExit={(code) => {
          instance.unmount();
          keySourceFor(options.terminal.stdin).close();
          resolve(code);
        }}
        onStartFailed={(error) => {
          instance.clear();
          instance.unmount();
          keySourceFor(options.terminal.stdin).close();
          reject(new SessionStartFailed(error));
        }}
      />,
      renderOptions(options.terminal),
    );
  });
}
