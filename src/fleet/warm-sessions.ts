// Warm session processes: `warden fleet-session` started ahead of the jobs, one per free slot of
// the worker, each already past Node's start-up and the session's module loading when a job comes
// (src/cli/commands/fleet-session.ts). A job takes one and hands it its arguments on stdin; a new
// one is started when the job ends, not while it runs, so it never competes with a session. Each
// leads its own process group on the worker's orphan guard from the start, as a job's session does.
import type { ChildProcess } from "node:child_process";
import { spawnGuarded } from "../process/guarded-spawn.js";
import { releaseProcessGroup } from "../process/orphan-guard.js";

export class WarmSessions {
  private readonly idle: ChildProcess[] = [];
  private closed = false;

  constructor(
    private readonly command: readonly string[],
    private readonly size: number,
    private readonly cwd: string,
    /** The sessions' environment: the worker's without the fleet's variables (child-env.ts). */
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Starts processes until `size` are waiting. */
  fill(): void {
    while (!this.closed && this.idle.length < this.size) {
      const child = this.start();
      if (!child) return;
      this.idle.push(child);
    }
  }

  /** A waiting process, or undefined (none ready: the job starts a fresh one). */
  take(): ChildProcess | undefined {
    for (;;) {
      const child = this.idle.shift();
      if (!child) return undefined;
      if (child.exitCode === null && child.signalCode === null) return child;
    }
  }

  close(): void {
    this.closed = true;
    for (const child of this.idle.splice(0)) {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
        releaseProcessGroup(child.pid);
      }
    }
  }

  private start(): ChildProcess | undefined {
    const [program, ...prefix] = this.command;
    if (!program) return undefined;
    const child = spawnGuarded(program, [...prefix, "fleet-session"], {
      cwd: this.cwd,
      env: this.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    if (child.pid === undefined) return undefined;
    // Until a job takes it, nothing reads it: a warm process that dies is simply dropped.
    child.once("error", () => undefined);
    child.stdin?.on("error", () => undefined);
    return child;
  }
}
