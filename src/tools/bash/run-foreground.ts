// Runs a launched command to its end while the tool call waits: collects output, reports progress
// once it has run a while, and on timeout or abort kills the whole process group before returning,
// so nothing the command started outlives the call.
import type { ChildProcess } from "node:child_process";
import { releaseProcessGroup } from "../../process/orphan-guard.js";
import { groupOutlives, killGroupOnExit, killProcessGroup } from "../../process/process-group.js";
import type { CapturedOutput, OutputCapture } from "./output-capture.js";

/** A command that has run this long starts reporting progress. */
export const PROGRESS_THRESHOLD_MS = 2_000;
const PROGRESS_INTERVAL_MS = 1_000;
/**
 * After the shell exits, how long to keep reading output that is still in the pipes. A process the
 * command left running in the background (`server &`) keeps the pipes open forever; we stop
 * waiting for it after this.
 */
const PIPE_DRAIN_MS = 250;
/** How long group members may outlive the shell before they count as left behind. */
const LINGER_MS = 300;

export interface BashProgress {
  type: "bash_progress";
  /** The last lines of output so far. */
  output: string;
  totalLines: number;
  totalBytes: number;
  elapsedMs: number;
  timeoutMs: number;
}

export interface ForegroundResult {
  exitCode: number | null;
  /** Processes the command started in the background (`server &`) that outlived it. */
  leftoverProcesses: boolean;
  signal: NodeJS.Signals | null;
  output: CapturedOutput;
  timedOut: boolean;
  interrupted: boolean;
  durationMs: number;
  /**
   * The person moved the command to the background while it ran: it is still running, its pipes
   * are still open and nothing here waits for it or kills it any more (the caller hands it to the
   * background task registry). `output` is what it wrote until then.
   */
  movedToBackground?: boolean;
  /** It was moved because its time ran out (backgroundOnTimeout), not by the person. */
  backgroundedOnTimeout?: boolean;
}

export interface ForegroundOptions {
  child: ChildProcess;
  capture: OutputCapture;
  timeoutMs: number;
  signal: AbortSignal;
  onProgress?: (progress: BashProgress) => void;
  /** Registers how to move this command to the background (Ctrl+B); returns the unregistering function. */
  registerMove?: (move: () => void) => () => void;
  /**
   * When the time runs out, move the command to the background (as Ctrl+B does) instead of
   * stopping it: for commands that typically run long (a dev server, a watch build).
   */
  backgroundOnTimeout?: boolean;
  /** A foreground budget: still running after this long, the command moves to the background. */
  backgroundAfterMs?: number;
}

export function runForeground(options: ForegroundOptions): Promise<ForegroundResult> {
  const { child, capture, timeoutMs, signal, onProgress, registerMove, backgroundOnTimeout, backgroundAfterMs } =
    options;
  const startedAt = Date.now();
  let timedOut = false;
  let interrupted = false;
  let killing: Promise<void> | undefined;

  const stopGroup = () => {
    if (!killing && child.pid !== undefined) killing = killProcessGroup(child.pid);
  };

  const onOutput = (chunk: Buffer) => capture.write(chunk);
  child.stdout?.on("data", onOutput);
  child.stderr?.on("data", onOutput);

  // Set once the promise below exists: moves the command to the background, false if it cannot.
  let moveOnTimeout: (() => boolean) | undefined;
  const timeoutTimer = setTimeout(() => {
    if (backgroundOnTimeout && moveOnTimeout?.()) return;
    timedOut = true;
    stopGroup();
  }, timeoutMs);
  const budgetTimer =
    backgroundAfterMs !== undefined && backgroundAfterMs < timeoutMs
      ? setTimeout(() => moveOnTimeout?.(), backgroundAfterMs)
      : undefined;
  const onAbort = () => {
    interrupted = true;
    stopGroup();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });

  let progressTimer: NodeJS.Timeout | undefined;
  if (onProgress) {
    const report = () =>
      onProgress({
        type: "bash_progress",
        output: capture.recentLines(),
        totalLines: capture.lines,
        totalBytes: capture.bytes,
        elapsedMs: Date.now() - startedAt,
        timeoutMs,
      });
    progressTimer = setTimeout(function tick() {
      report();
      progressTimer = setTimeout(tick, PROGRESS_INTERVAL_MS);
    }, PROGRESS_THRESHOLD_MS);
  }

  return new Promise<ForegroundResult>((resolve, reject) => {
    let unregisterMove: (() => void) | undefined;
    const cleanup = () => {
      clearTimeout(timeoutTimer);
      clearTimeout(budgetTimer);
      if (progressTimer) clearTimeout(progressTimer);
      signal.removeEventListener("abort", onAbort);
      unregisterMove?.();
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new Error(`could not start the shell: ${error.message}`));
    };
    child.once("error", onError);
    const move = (onTimeout: boolean): boolean => {
      // Only while it still runs and nobody is stopping it.
      if (killing || child.exitCode !== null || child.signalCode !== null) return false;
      cleanup();
      child.off("exit", onExit);
      child.off("error", onError);
      child.stdout?.off("data", onOutput);
      child.stderr?.off("data", onOutput);
      resolve({
        exitCode: null,
        leftoverProcesses: false,
        signal: null,
        output: capture.finish(),
        timedOut: false,
        interrupted: false,
        durationMs: Date.now() - startedAt,
        movedToBackground: true,
        ...(onTimeout && { backgroundedOnTimeout: true }),
      });
      return true;
    };
    moveOnTimeout = () => move(true);
    if (registerMove) unregisterMove = registerMove(() => void move(false));
    const onExit = async (exitCode: number | null, exitSignal: NodeJS.Signals | null) => {
      cleanup();
      await drainPipes(child);
      if (killing) await killing;
      // A `cmd &` the model left behind keeps running (it may be a server it wants), but it must
      // not outlive Warden: it is killed with the session like a background task.
      const leftoverProcesses = child.pid !== undefined && !killing && (await groupOutlives(child.pid, LINGER_MS));
      if (child.pid !== undefined) {
        if (leftoverProcesses) killGroupOnExit(child.pid);
        else releaseProcessGroup(child.pid);
      }
      resolve({
        exitCode,
        leftoverProcesses,
        signal: exitSignal,
        output: capture.finish(),
        timedOut,
        interrupted: interrupted && !timedOut,
        durationMs: Date.now() - startedAt,
      });
    };
    child.once("exit", onExit);
  });
}

function drainPipes(child: ChildProcess): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((stream) => stream && !stream.closed);
  if (!streams.length) return Promise.resolve();
  return new Promise((resolve) => {
    let open = streams.length;
    const timer = setTimeout(finish, PIPE_DRAIN_MS);
    function finish() {
      clearTimeout(timer);
      for (const stream of streams) stream?.destroy();
      resolve();
    }
    for (const stream of streams) {
      stream?.once("close", () => {
        open -= 1;
        if (open === 0) finish();
      });
    }
  });
}
