// Runs one command hook: JSON on stdin, stdout and stderr captured (bounded), a timeout that kills
// the hook's whole process group so a hung hook cannot leave children behind.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawnGuarded } from "../process/guarded-spawn.js";
import { releaseProcessGroup } from "../process/orphan-guard.js";

export interface HookCommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The hook could not be started at all. */
  spawnError?: string;
}

export interface RunHookCommandOptions {
  cwd: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Told after each piece of output, with everything written so far (hook_progress lines). */
  onOutput?: (stdout: string, stderr: string) => void;
}

const MAX_CAPTURE_BYTES = 1024 * 1024;
/** How long output may keep arriving after the hook process itself has exited. */
const EXIT_GRACE_MS = 300;

export function runHookCommand(
  command: string,
  input: unknown,
  options: RunHookCommandOptions,
): Promise<HookCommandResult> {
  return new Promise((resolvePromise) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let settled = false;
    // Killed with Warden if Warden dies while the hook runs (guarded before it starts); released
    // once the hook has answered. /bin/sh -c is what spawn's `shell: true` runs.
    const child = spawnGuarded("/bin/sh", ["-c", command], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    }) as ChildProcessWithoutNullStreams;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => killGroup();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (result: Omit<HookCommandResult, "stdout" | "stderr" | "timedOut">) => {
      if (settled) return;
      settled = true;
      if (child.pid !== undefined) releaseProcessGroup(child.pid);
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolvePromise({ ...result, stdout, stderr, timedOut });
    };
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stdout.length < MAX_CAPTURE_BYTES) stdout += chunk;
      if (!settled) options.onOutput?.(stdout, stderr);
    });
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < MAX_CAPTURE_BYTES) stderr += chunk;
      if (!settled) options.onOutput?.(stdout, stderr);
    });
    // A hook that does not read its stdin closes the pipe early; that is its right, not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(`${JSON.stringify(input)}\n`);
    child.on("error", (error) => finish({ exitCode: null, signal: null, spawnError: error.message }));
    child.on("close", (code, signal) => finish({ exitCode: code, signal }));
    // A hook that starts something in the background (`notify-send ... &`) has answered when it
    // exits, although the background process still holds its output open: stop waiting shortly after.
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        if (settled) return;
        child.stdout.destroy();
        child.stderr.destroy();
        finish({ exitCode: code, signal });
      }, EXIT_GRACE_MS).unref();
    });
  });
}
