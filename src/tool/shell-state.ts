// What the shell tools keep in AppState, as types: the session's shell, its sandbox settings and
// its background tasks. Declared in the contract so that AppState can name them without importing
// a concrete tool; src/tools/bash/ and src/shell/sandbox/ hold the code that fills them.
import type { ChildProcess } from "node:child_process";

/** The shell and environment captured on the session's first command (src/tools/bash/shell-session.ts). */
export interface ShellSnapshot {
  shellPath: string;
  env: Record<string, string>;
}

/** The `sandbox` key of the settings files, parsed by src/shell/sandbox/config.ts. */
export interface SandboxSettings {
  /** Run Bash commands inside bubblewrap. */
  enabled?: boolean;
  /** Let sandboxed commands use the network. Off by default: the sandbox gets only its own loopback. */
  allowNetwork?: boolean;
  /**
   * Hosts sandboxed commands may reach through Warden's filtering proxy (`example.com`,
   * `*.example.com`); `*` allows the whole network. Claude Code's `network.allowedDomains`.
   */
  allowedDomains?: string[];
  /** Hosts refused even when an allowed pattern covers them (`network.deniedDomains`). */
  deniedDomains?: string[];
  /**
   * Programs whose commands run outside the sandbox, asked about as usual (`docker`, `git:*`).
   * Only single program names are understood; a longer prefix is ignored (it stays sandboxed).
   */
  excludedCommands?: string[];
  /** A sandboxed command that only lacks an allow rule runs without asking. Off by default. */
  autoAllowBashIfSandboxed?: boolean;
  /** Folders the sandbox may write besides the working directories and the session's temp folder. */
  additionalWritableDirectories?: string[];
  /**
   * Let sandboxed commands create Unix-domain sockets (and so reach host services such as the
   * Docker daemon or the ssh agent). Off by default.
   */
  allowUnixSockets?: boolean;
  /**
   * Whether the model may ask for a run outside the sandbox (dangerouslyDisableSandbox). Default
   * true: such a run then goes through the ordinary permission rules. False: it is refused.
   */
  allowUnsandboxedCommands?: boolean;
}

export type TaskStatus = "running" | "completed" | "failed" | "killed";

/**
 * A command started with run_in_background, or a background agent, as TaskOutput and TaskStop
 * report it.
 */
export interface BackgroundTask {
  id: string;
  /** shell: a process group (Bash); agent: a subagent running in this process. Absent: shell. */
  kind?: "shell" | "agent";
  /** The command, or for an agent `agent <type>: <description>`. */
  command: string;
  description?: string;
  outputPath: string;
  /** The process group's leader (shell tasks); 0 for a task in this process. */
  pid: number;
  startedAt: number;
  status: TaskStatus;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  endedAt?: number;
  sandboxed: boolean;
  /** Set when the task was killed for writing more than the output limit. */
  outputLimitExceeded?: boolean;
  /** The completion notice queued for the model, if one was. */
  notice?: string;
  /** The tool call that started it (Bash with run_in_background, Agent, or a command moved there). */
  toolUseId?: string;
  /** An agent task's agent type (`general-purpose`, ...). */
  subagentType?: string;
}

export interface StartTaskOptions {
  command: string;
  description?: string;
  /** The tool call that starts it. */
  toolUseId?: string;
  sandboxed: boolean;
  /** Starts the process with stdout and stderr on the given file descriptor. */
  launch: (outputFd: number) => ChildProcess;
  /** Receives the completion notification for the model. */
  notify: (text: string) => void;
  outputLimitBytes?: number;
}

/** Work that runs in this process as a background task (a background agent). */
export interface StartInProcessTaskOptions {
  command: string;
  description?: string;
  /** The tool call that starts it. */
  toolUseId?: string;
  /** The agent's type, for an agent task. */
  subagentType?: string;
  /**
   * Does the work, writing what it has to say through `output` (appended to the task's file), and
   * resolves with its outcome; `signal` aborts when the task is stopped.
   */
  run(
    signal: AbortSignal,
    output: (text: string) => void,
    task: BackgroundTask,
    progress: (progress: BackgroundTaskProgress) => void,
  ): Promise<{ failed: boolean; summary: string }>;
  /** Receives the completion notification for the model. */
  notify: (text: string) => void;
}

/** A foreground command already running that becomes a background task (the person pressed Ctrl+B). */
export interface AdoptTaskOptions {
  command: string;
  description?: string;
  /** The tool call whose command it was. */
  toolUseId?: string;
  sandboxed: boolean;
  /** The running shell, its stdout and stderr still piped to us. */
  child: ChildProcess;
  /** What it wrote before it was moved (the task's output file starts with it). */
  outputSoFar: string;
  notify: (text: string) => void;
  outputLimitBytes?: number;
}

/** A background agent's work so far (the Agent SDK's task_progress `usage`). */
export interface BackgroundTaskProgress {
  totalTokens: number;
  toolUses: number;
  /** The tool it called last. */
  lastToolName?: string;
}

/**
 * What a registry tells its observers as its tasks go (the Agent SDK's task_started, task_progress
 * and task_notification lines): a task registered, an agent's progress, a task ended (completed,
 * failed, or stopped by TaskStop or the session's end), with the summary the model is given.
 */
export type BackgroundTaskEvent =
  | { kind: "started"; task: BackgroundTask }
  | { kind: "progress"; task: BackgroundTask; progress: BackgroundTaskProgress }
  | { kind: "ended"; task: BackgroundTask; summary: string };

/** A session's background tasks (implemented in src/tasks/registry.ts). */
export interface BackgroundTaskRegistry {
  /** Calls `listener` for every task event from now on; returns the unsubscribe. */
  observe(listener: (event: BackgroundTaskEvent) => void): () => void;
  start(options: StartTaskOptions): BackgroundTask;
  /**
   * Starts in-process work as a task; at most a bounded number run at once
   * (WARDEN_MAX_BACKGROUND_AGENTS, default 8), the rest wait their turn while reported running.
   */
  startInProcess(options: StartInProcessTaskOptions): BackgroundTask;
  /** Takes over a running foreground command: its output goes on into the task's file. */
  adopt(options: AdoptTaskOptions): BackgroundTask;
  /**
   * Lists a task of an earlier process of this session again (--resume: a background agent that
   * ended then), so TaskOutput reads it; a task still marked running is taken as failed.
   */
  restore(task: BackgroundTask): void;
  get(id: string): BackgroundTask | undefined;
  list(): BackgroundTask[];
  /** Waits until the task ends, the time is up or the signal aborts; returns the task as it is then. */
  waitFor(id: string, timeoutMs: number, signal?: AbortSignal): Promise<BackgroundTask | undefined>;
  /** Ends a running task (its whole process group) and waits until it is gone. */
  stop(id: string): Promise<BackgroundTask | undefined>;
  /** Ends every running task (session shutdown). */
  stopAll(): Promise<void>;
}

/**
 * The foreground Bash commands running now, which the person may send to the background (Ctrl+B in
 * the interactive UI): each call then ends at once with the task's id, and the command runs on as
 * a background task (implemented in src/tools/bash/foreground-commands.ts).
 */
export interface ForegroundCommandControl {
  /** How many foreground commands are running. */
  running(): number;
  /** Moves every running foreground command to the background; returns how many moved. */
  moveAllToBackground(): number;
}
