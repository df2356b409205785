// One job's session as a child process: `warden -p --output-format stream-json --verbose`, the
// same binary a person runs, so a fleet job and a local session share every behaviour.
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

export interface ChildSessionOptions {
  spec: JobSpec;
  cwd: string;
  /** The prompt actually sent: the job's, or the takeover note when resuming. */
  prompt: string;
  /** Resume this session id (its transcript is already on this worker's disk). */
  resume?: string;
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

export function sessionArgs(options: Pick<ChildSessionOptions, "spec" | "cwd" | "prompt" | "resume">): string[] {
  const { spec } = options;
  const args = ["-p", "--output-format", "stream-json", "--verbose", "--cwd", options.cwd];
  if (spec.model) args.push("--model", spec.model);
  if (spec.permissionMode) args.push("--permission-mode", spec.permissionMode);
  if (spec.allowedTools?.length) args.push("--allowed-tools", ...spec.allowedTools);
  if (spec.disallowedTools?.length) args.push("--disallowed-tools", ...spec.disallowedTools);
  if (spec.maxTurns !== undefined) args.push("--max-turns", String(spec.maxTurns));
  if (spec.maxBudgetUsd !== undefined) args.push("--max-budget-usd", String(spec.maxBudgetUsd));
  if (spec.jsonSchema) args.push("--json-schema", JSON.stringify(spec.jsonSchema));
  if (spec.appendSystemPrompt) args.push("--append-system-prompt", spec.appendSystemPrompt);
  if (options.resume) args.push("--resume", options.resume);
  // The prompt after `--`: a prompt starting with "-" is still a prompt.
  args.push("--", options.prompt);
  return args;
}

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
      `${JSON.stringify({ argv: sessionArgs(options), cwd: options.cwd, env: envChanges(options.env) })}\n`,
    );
    return options.warm;
  }
  const [program, ...prefix] = options.command;
  if (!program) throw new Error("no warden command to run the session with");
  const child = spawnGuarded(program, [...prefix, ...sessionArgs(options)], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`cannot start the session: ${program} did not start`);
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
