// One job's session as a child process: `warden --session-spec -` with the session's spec on
// stdin, the same binary a person runs, so a fleet job and a local session share every behaviour.
// The job is made into a SessionSpec once, by the CLI's wiring (cli/session/spec-of-job.ts:
// headless, stream-json, verbose), and crosses to the child as that one value, read back there by
// the schema that checked it (cli/session/spec-wire.ts).
//
// The child leads a process group of its own and is on the worker's orphan guard: a worker killed
// with SIGKILL takes its sessions with it (and each session's own guard takes its commands), so a
// job taken over elsewhere never races a half-dead copy of itself. Cancelling is what ESC is to a
// person: SIGINT aborts the session, which stops its tool calls and their commands; a session that
// has not ended a few seconds later has its group killed.
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { spawnGuarded } from "../process/guarded-spawn.js";
import { releaseProcessGroup } from "../process/orphan-guard.js";
import type { JobSpec } from "./job-spec.js";

/** One run of a job's session: what its SessionSpec is made of. */
export interface JobRun {
  job: JobSpec;
  /** The job's clone (absolute): the session's working directory. */
  cwd: string;
  /** The prompt actually sent: the job's, or the takeover note when resuming. */
  prompt: string;
  /** Resume this session id (its transcript is already on this worker's disk). */
  resume?: string;
}

/** How a process is told to run a session: its `warden` arguments and what it reads on stdin. */
export interface SessionInvocation {
  args: readonly string[];
  input: string;
}

/**
 * `run` as a session's invocation: its SessionSpec serialised, given by the CLI, which owns the
 * schema (the fleet never turns a job into flags of its own).
 */
export type JobSessionArgs = (run: JobRun) => SessionInvocation;

export interface ChildSessionOptions {
  /** The session to run, from JobSessionArgs. */
  session: SessionInvocation;
  cwd: string;
  /** The `warden` command: node and the CLI script. */
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  onLine: (line: string) => void;
  onStderr: (text: string) => void;
  /** A warm `warden fleet-session` process (warm-sessions.ts) to run the session in, already guarded. */
  warm?: ChildProcess;
}

export interface ChildSession {
  pid: number;
  /** Resolves with the exit code (or 128 + signal number) once the process and its output ended. */
  done: Promise<number>;
  /** As ESC: SIGINT, then the whole group after `graceMs`. */
  abort(graceMs?: number): void;
  /** Kill the group now. */
  kill(): void;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** What differs from the worker's own environment: all a warm process needs to be told. */
function envChanges(env: NodeJS.ProcessEnv): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(env)) if (value !== process.env[key]) changes[key] = value ?? null;
  for (const key of Object.keys(process.env)) if (!(key in env)) changes[key] = null;
  return changes;
}

function spawnSession(options: ChildSessionOptions): ChildProcess {
  if (options.warm) {
    options.warm.stdin?.end(
      `${JSON.stringify({ argv: options.session.args, input: options.session.input, cwd: options.cwd, env: envChanges(options.env) })}\n`,
    );
    return options.warm;
  }
  const [program, ...prefix] = options.command;
  if (!program) throw new Error("no warden command to run the session with");
  const child = spawnGuarded(program, [...prefix, ...options.session.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`cannot start the session: ${program} did not start`);
  // The spec, then the end of stdin: the session reads nothing else from it.
  child.stdin?.on("error", () => undefined);
  child.stdin?.end(options.session.input);
  return child;
}

export function startChildSession(options: ChildSessionOptions): ChildSession {
  const child = spawnSession(options);
  const pid = child.pid as number;
  let exited = false;
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout>, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() !== "") options.onLine(line);
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => options.onStderr(text));
  const outputClosed = new Promise<void>((resolve) => lines.once("close", () => resolve()));
  const exit = new Promise<number>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      exited = true;
      resolve(child.exitCode ?? 128 + (child.signalCode ? (SIGNAL_NUMBERS[child.signalCode] ?? 1) : 1));
      return;
    }
    child.once("error", (error) => {
      options.onStderr(`cannot start the session: ${error.message}\n`);
      resolve(127);
    });
    child.once("exit", (code, signal) => {
      exited = true;
      resolve(code ?? 128 + (signal ? (SIGNAL_NUMBERS[signal] ?? 1) : 1));
    });
  });
  const killGroup = () => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const done = exit.then(async (code) => {
    // The group may hold strays the session left (it kills its own, this is the net under that).
    killGroup();
    releaseProcessGroup(pid);
    await outputClosed;
    return code;
  });
  return {
    pid,
    done,
    abort(graceMs = 5_000) {
      if (exited) return;
      try {
        process.kill(pid, "SIGINT");
      } catch {
        return;
      }
      const timer = setTimeout(killGroup, graceMs);
      timer.unref();
      void done.then(() => clearTimeout(timer));
    },
    kill: killGroup,
  };
}
