// Commands started with run_in_background: each writes straight to its own file in the session
// folder (so it keeps running and logging whatever the main loop is doing), is watched so its file
// cannot grow past a cap, and when it ends the model gets a notification on its next turn.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { forgetGroupOnExit, killGroupOnExit, killProcessGroup, signalProcessGroup } from "../process/process-group.js";
import { interpretCommandResult } from "../shell/exit-code/index.js";
import type {
  AdoptTaskOptions,
  BackgroundTask,
  BackgroundTaskEvent,
  BackgroundTaskRegistry,
  StartInProcessTaskOptions,
  StartTaskOptions,
} from "../tool/shell-state.js";
import type { ToolUseContext } from "../tool/types.js";

/** Beyond this the task is killed: a runaway logger must not fill the disk. */
export const DEFAULT_TASK_OUTPUT_LIMIT_BYTES = 5 * 1024 ** 3;
const OUTPUT_WATCH_INTERVAL_MS = 1_000;

interface TaskEntry {
  task: BackgroundTask;
  finished: Promise<void>;
  stoppedByRequest: boolean;
  /** Ends the task's work (a process group, or an in-process task's abort). */
  end: () => Promise<void>;
}

/** In-process tasks (background agents) running at once, unless WARDEN_MAX_BACKGROUND_AGENTS says otherwise. */
export const DEFAULT_MAX_IN_PROCESS_TASKS = 8;

function maxInProcessFromEnv(): number {
  const value = Number(process.env.WARDEN_MAX_BACKGROUND_AGENTS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_IN_PROCESS_TASKS;
}

function outputLimitFromEnv(): number {
  const value = Number(process.env.WARDEN_TASK_OUTPUT_LIMIT_BYTES);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TASK_OUTPUT_LIMIT_BYTES;
}

/** Background tasks as processes, each writing to its own file under the session folder. */
export class ShellTaskRegistry implements BackgroundTaskRegistry {
  private readonly entries = new Map<string, TaskEntry>();
  /** In-process tasks running, and the starts of those waiting for a slot. */
  private inProcessRunning = 0;
  private readonly inProcessWaiting: Array<() => void> = [];

  private readonly observers = new Set<(event: BackgroundTaskEvent) => void>();

  constructor(private readonly outputDir: string) {}

  observe(listener: (event: BackgroundTaskEvent) => void): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  /** An observer's failure is its own: the task goes on. */
  private tell(event: BackgroundTaskEvent): void {
    for (const listener of this.observers) {
      try {
        listener(event);
      } catch {}
    }
  }

  start(options: StartTaskOptions): BackgroundTask {
    mkdirSync(this.outputDir, { recursive: true });
    const id = this.newId();
    const outputPath = join(this.outputDir, `${id}.output`);
    const fd = openSync(outputPath, "w", 0o600);
    let child: ChildProcess;
    try {
      child = options.launch(fd);
    } finally {
      // The child holds its own copy of the descriptor.
      closeSync(fd);
    }
    if (child.pid === undefined) {
      throw new Error(`could not start the background command: ${options.command}`);
    }
    return this.track(id, outputPath, child, options);
  }

  /**
   * A foreground command the person sent to the background: what it wrote so far starts its file,
   * and its pipes (still ours) are copied into the file from now on, in order.
   */
  adopt(options: AdoptTaskOptions): BackgroundTask {
    const { child } = options;
    if (child.pid === undefined) throw new Error(`the command has no process to adopt: ${options.command}`);
    mkdirSync(this.outputDir, { recursive: true });
    const id = this.newId();
    const outputPath = join(this.outputDir, `${id}.output`);
    const fd = openSync(outputPath, "w", 0o600);
    writeSync(fd, options.outputSoFar);
    let open = 0;
    const copy = (chunk: Buffer) => writeSync(fd, chunk);
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream || stream.closed) continue;
      open++;
      stream.on("data", copy);
      stream.once("close", () => {
        if (--open === 0) closeSync(fd);
      });
    }
    if (open === 0) closeSync(fd);
    return this.track(id, outputPath, child, options);
  }

  private track(
    id: string,
    outputPath: string,
    child: ChildProcess,
    options: Pick<
      StartTaskOptions,
      "command" | "description" | "toolUseId" | "sandboxed" | "notify" | "outputLimitBytes"
    >,
  ): BackgroundTask {
    const pid = child.pid as number;
    const task: BackgroundTask = {
      id,
      command: options.command,
      description: options.description,
      outputPath,
      pid,
      startedAt: Date.now(),
      status: "running",
      sandboxed: options.sandboxed,
      ...(options.toolUseId !== undefined && { toolUseId: options.toolUseId }),
    };
    killGroupOnExit(pid);
    child.unref();

    const limit = options.outputLimitBytes ?? outputLimitFromEnv();
    const watchFd = openSync(outputPath, "r");
    const watcher = setInterval(() => {
      if (fstatSync(watchFd).size > limit) {
        task.outputLimitExceeded = true;
        signalProcessGroup(pid, "SIGKILL");
      }
    }, OUTPUT_WATCH_INTERVAL_MS);
    watcher.unref();

    const entry: TaskEntry = {
      task,
      stoppedByRequest: false,
      finished: Promise.resolve(),
      end: () => killProcessGroup(pid),
    };
    entry.finished = new Promise<void>((resolve) => {
      const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
        clearInterval(watcher);
        closeSync(watchFd);
        forgetGroupOnExit(pid);
        task.exitCode = exitCode;
        task.signal = signal;
        task.endedAt = Date.now();
        if (entry.stoppedByRequest) task.status = "killed";
        else
          task.status =
            exitCode !== null && !interpretCommandResult(task.command, exitCode).isError ? "completed" : "failed";
        if (!entry.stoppedByRequest) {
          task.notice = completionNotice(task);
          options.notify(task.notice);
        }
        this.tell({ kind: "ended", task, summary: task.notice ?? `Background task ${task.id} was stopped.` });
        resolve();
      };
      child.once("exit", finish);
      child.once("error", () => finish(null, null));
    });
    this.entries.set(id, entry);
    this.tell({ kind: "started", task });
    return task;
  }

  get(id: string): BackgroundTask | undefined {
    return this.entries.get(id)?.task;
  }

  list(): BackgroundTask[] {
    return [...this.entries.values()].map((entry) => entry.task);
  }

  /** Waits until the task ends, the time is up or the signal aborts; returns the task as it is then. */
  async waitFor(id: string, timeoutMs: number, signal?: AbortSignal): Promise<BackgroundTask | undefined> {
    const entry = this.entries.get(id);
    if (entry?.task.status !== "running") return entry?.task;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      onAbort = resolve;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    await Promise.race([entry.finished, stop]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    return entry.task;
  }

  /** Ends a running task (its whole process group) and waits until it is gone. */
  async stop(id: string): Promise<BackgroundTask | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.task.status !== "running") return entry.task;
    entry.stoppedByRequest = true;
    await entry.end();
    await entry.finished;
    return entry.task;
  }

  /**
   * Runs work of this process as a task (a background agent): its output goes to its file as it
   * comes, its end is notified like a command's, TaskStop aborts it. Bounded: past the limit a
   * task waits for a slot (and says so in its file), still reported as running.
   */
  startInProcess(options: StartInProcessTaskOptions): BackgroundTask {
    mkdirSync(this.outputDir, { recursive: true });
    const id = this.newId();
    const outputPath = join(this.outputDir, `${id}.output`);
    writeFileSync(outputPath, "", { mode: 0o600 });
    const output = (text: string) => appendFileSync(outputPath, text);
    const task: BackgroundTask = {
      id,
      kind: "agent",
      command: options.command,
      description: options.description,
      outputPath,
      pid: 0,
      startedAt: Date.now(),
      status: "running",
      sandboxed: false,
      ...(options.toolUseId !== undefined && { toolUseId: options.toolUseId }),
      ...(options.subagentType !== undefined && { subagentType: options.subagentType }),
    };
    const abort = new AbortController();
    const entry: TaskEntry = {
      task,
      stoppedByRequest: false,
      finished: Promise.resolve(),
      end: async () => abort.abort("stopped"),
    };
    entry.finished = (async () => {
      await this.inProcessSlot(abort.signal, output);
      let outcome: { failed: boolean; summary: string };
      try {
        outcome = abort.signal.aborted
          ? { failed: true, summary: "stopped before it started" }
          : await options.run(abort.signal, output, task, (progress) =>
              this.tell({ kind: "progress", task, progress }),
            );
      } catch (error) {
        outcome = { failed: true, summary: error instanceof Error ? error.message : String(error) };
      } finally {
        this.releaseInProcessSlot();
      }
      task.endedAt = Date.now();
      task.exitCode = null;
      task.status = entry.stoppedByRequest ? "killed" : outcome.failed ? "failed" : "completed";
      if (!entry.stoppedByRequest) {
        task.notice =
          `Background task ${id}: ${options.description ?? options.command} ${task.status}. ${outcome.summary}`.trimEnd() +
          ` Its output: TaskOutput (task_id "${id}") or ${outputPath}.`;
        options.notify(task.notice);
      }
      this.tell({ kind: "ended", task, summary: task.notice ?? `Background task ${id} was stopped.` });
    })();
    this.entries.set(id, entry);
    this.tell({ kind: "started", task });
    return task;
  }

  restore(task: BackgroundTask): void {
    if (this.entries.has(task.id)) return;
    const restored: BackgroundTask = task.status === "running" ? { ...task, status: "failed" } : { ...task };
    this.entries.set(task.id, {
      task: restored,
      stoppedByRequest: false,
      finished: Promise.resolve(),
      end: async () => {},
    });
  }

  private async inProcessSlot(signal: AbortSignal, output: (text: string) => void): Promise<void> {
    if (this.inProcessRunning < maxInProcessFromEnv()) {
      this.inProcessRunning++;
      return;
    }
    output("(waiting for a free slot: too many background agents are running)\n");
    await new Promise<void>((resolve) => {
      const start = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      // A task stopped while waiting leaves the queue at once, taking no slot.
      const onAbort = () => {
        const index = this.inProcessWaiting.indexOf(start);
        if (index >= 0) this.inProcessWaiting.splice(index, 1);
        this.inProcessRunning++;
        resolve();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.inProcessWaiting.push(start);
    });
  }

  private releaseInProcessSlot(): void {
    const next = this.inProcessWaiting.shift();
    // The slot passes straight to the next waiting task.
    if (next) next();
    else this.inProcessRunning--;
  }

  /** Ends every running task (session shutdown). */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.list()
        .filter((task) => task.status === "running")
        .map((task) => this.stop(task.id)),
    );
  }

  private newId(): string {
    for (;;) {
      const id = `b${randomBytes(4).toString("hex")}`;
      if (!this.entries.has(id)) return id;
    }
  }
}

export function completionNotice(task: BackgroundTask): string {
  const label = task.description ? `"${task.description}" (${task.command})` : `"${task.command}"`;
  let how: string;
  if (task.outputLimitExceeded) how = "was killed because its output passed the size limit";
  else if (task.exitCode === null || task.exitCode === undefined)
    how = `was ended by signal ${task.signal ?? "unknown"}`;
  else {
    const meaning = interpretCommandResult(task.command, task.exitCode).meaning;
    how = `${task.status === "completed" ? "completed" : "failed"} with exit code ${task.exitCode}${meaning ? ` (${meaning})` : ""}`;
  }
  return (
    `Background task ${task.id}: command ${label} ${how}. ` +
    `Read its output with TaskOutput (task_id "${task.id}") or from ${task.outputPath}.`
  );
}

/** The session's registry, created on first use; task output goes under the session folder. */
export function backgroundTasks(context: ToolUseContext): BackgroundTaskRegistry {
  return sessionBackgroundTasks(context, context.options.sessionDir);
}

/** The same, from the session's store and folder (for what observes the tasks from the start). */
export function sessionBackgroundTasks(
  store: Pick<ToolUseContext, "getAppState" | "setAppState">,
  sessionDir: string,
): BackgroundTaskRegistry {
  const existing = store.getAppState().backgroundTasks;
  if (existing) return existing;
  const registry = new ShellTaskRegistry(join(sessionDir, "tasks"));
  store.setAppState((state) => (state.backgroundTasks ? state : { ...state, backgroundTasks: registry }));
  return store.getAppState().backgroundTasks ?? registry;
}

/**
 * Takes a finished task's notice back out of the queue: the model has just read the task's final
 * state through TaskOutput, and a reminder repeating it would only cost tokens.
 */
export function withdrawNotice(context: ToolUseContext, task: BackgroundTask): void {
  const notice = task.notice;
  if (!notice) return;
  context.channels.reminders.withdraw((text) => text === notice);
}

/**
 * Adds a task's notice for the model's next turn (the loop wraps it in a <system-reminder>), and
 * asks an idle session to take that turn now.
 */
export function pushReminder(context: ToolUseContext, text: string): void {
  context.channels.reminders.send(text);
  context.channels.wake.raise();
}
