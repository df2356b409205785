// Starting a child that is on the orphan guard's list before any of its own code runs.
//
// spawn() returns once the child has exec'd, and only then can Warden tell the guard about it. A
// child that starts work at once (an MCP server, a language server, a hook, a fleet session) can
// run before Warden's thread is back from spawn(), and a Warden SIGKILLed in that moment would
// leave it running. So the child is started through a small shell that waits for one line on an
// extra descriptor, closes it and execs the real program in its own place (same pid, same process
// group). Warden writes the line only after guarding the pid; a Warden that dies first closes the
// pipe, the read fails and nothing starts. The cost is one exec of /bin/sh (about a millisecond).
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join, resolve as resolvePath } from "node:path";
import type { Writable } from "node:stream";
import { guardProcess, guardProcessGroup, prepareOrphanGuard } from "./orphan-guard.js";

type StdioEntry = "pipe" | "ignore" | "inherit" | number;

export interface GuardedSpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The child's descriptors 0-2 (and more if needed); the gate takes the next one. */
  stdio: StdioEntry[];
  /** A new process group led by the child, guarded as a group (everything it starts dies too). */
  detached?: boolean;
}

/** Reads the go-ahead from descriptor `fd`, closes it and becomes the program (dash and bash alike). */
function gateScript(fd: number): string {
  return `{ read -r go <&${fd} && exec ${fd}<&-; } || exit 125; exec "$0" "$@"`;
}

/**
 * Whether `command` names an executable file, looked up as the shell will (on the PATH it is
 * given unless the name holds a slash). A program that cannot be found is spawned directly, so
 * the failure is Node's own spawn error (ENOENT, EACCES) rather than a shell's exit status 127.
 */
function isRunnable(command: string, cwd: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = command.includes("/")
    ? [isAbsolute(command) ? command : resolvePath(cwd, command)]
    : (env.PATH ?? "").split(delimiter).map((dir) => join(resolvePath(cwd, dir || "."), command));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * spawn(), with the child (or its group, when detached) on the orphan guard's list before it runs.
 * The returned process's pid is the program's own; its stdio entries are those asked for.
 */
export function spawnGuarded(command: string, args: string[], options: GuardedSpawnOptions): ChildProcess {
  prepareOrphanGuard();
  const spawnOptions: SpawnOptions = { cwd: options.cwd, env: options.env, detached: options.detached ?? false };
  const guardAs = (pid: number) => (options.detached ? guardProcessGroup(pid) : guardProcess(pid));
  if (process.platform === "win32" || !isRunnable(command, options.cwd, options.env)) {
    const child = spawn(command, args, { ...spawnOptions, stdio: options.stdio });
    if (child.pid !== undefined) guardAs(child.pid);
    return child;
  }
  const gateFd = Math.max(3, options.stdio.length);
  const stdio: StdioEntry[] = [...options.stdio];
  while (stdio.length < gateFd) stdio.push("ignore");
  stdio.push("pipe");
  const child = spawn("/bin/sh", ["-c", gateScript(gateFd), command, ...args], { ...spawnOptions, stdio });
  if (child.pid !== undefined) guardAs(child.pid);
  const gate = child.stdio[gateFd] as Writable | null;
  gate?.on("error", () => {});
  gate?.end("\n");
  return child;
}
