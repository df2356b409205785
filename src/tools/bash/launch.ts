// Starts one command: a fresh shell (optionally inside the sandbox) that enters the current
// directory, runs the command, and on exit writes `pwd -P` to a file so a `cd` can carry over.
import { type ChildProcess, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { guardProcessGroup, prepareOrphanGuard } from "../../process/orphan-guard.js";
import {
  holdMountPoints,
  releaseMountPoints,
  type SandboxPolicy,
  SECCOMP_FD,
  sandboxCommandLine,
} from "../../shell/sandbox/index.js";
import type { ShellSnapshot } from "../../tool/shell-state.js";

/** Single-quotes a string for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The script the shell runs. By default the command goes through `eval` of a quoted string so a
 * syntax error in it is an ordinary failed command (exit 2), and an EXIT trap (when the directory
 * is recorded) still records it when the command calls `exit`. Inline (no recording) the command
 * text follows the wrapper directly: bash then execs the command's last program itself rather
 * than forking it (eval would keep bash waiting), and a syntax error still fails with exit 2.
 * stderr joins stdout so the model reads both in the order they came.
 */
export function commandScript(command: string, cwd: string, cwdFile?: string, inline = false): string {
  if (inline && !cwdFile) return `${inlinePrefix(cwd)}${command}`;
  const lines = [WAIT_FOR_GUARD, "exec 2>&1", `cd -- ${shellQuote(cwd)} || exit 1`];
  if (cwdFile) lines.push(`trap ${shellQuote(`pwd -P >| ${shellQuote(cwdFile)} 2>/dev/null`)} EXIT`);
  lines.push(`eval ${shellQuote(command)}`);
  // One line: bash numbers the lines of an eval'd string from the eval's own line, so error
  // messages say "line N+1" for the command's line N instead of drifting further with each
  // wrapper line; inline, the command's first line is the script's first line too.
  return lines.join("; ");
}

/**
 * The script for a shell Warden does not start itself (an editor's terminal, which cannot hand it
 * the guard gate): the same steps as commandScript's eval form, with stdin closed as launchShell
 * closes it, so a command that waits for input reads EOF there too instead of hanging.
 */
export function terminalScript(command: string, cwd: string, cwdFile?: string): string {
  const lines = ["exec 2>&1 </dev/null", `cd -- ${shellQuote(cwd)} || exit 1`];
  if (cwdFile) lines.push(`trap ${shellQuote(`pwd -P >| ${shellQuote(cwdFile)} 2>/dev/null`)} EXIT`);
  lines.push(`eval ${shellQuote(command)}`);
  return lines.join("; ");
}

/**
 * What precedes an inline command on its line. Bash quotes the whole line in a syntax error
 * message; withoutInlinePrefix takes this wrapper back out so the model sees its own text only.
 */
export function inlinePrefix(cwd: string): string {
  return `${WAIT_FOR_GUARD}; exec 2>&1; cd -- ${shellQuote(cwd)} || exit 1; `;
}

/**
 * The descriptor on which the shell waits for Warden's go-ahead, given once the new process
 * group is on the orphan guard's list (src/process/orphan-guard.ts). Not 3: that is the sandbox's
 * seccomp program.
 */
export const GUARD_GATE_FD = 4;

/**
 * Nothing of the command runs before its process group is guarded: the shell reads one line from
 * the gate and closes it. A Warden that dies before writing it closes the gate instead, the read
 * fails and the shell exits without starting anything (bash and zsh both read into REPLY).
 */
const WAIT_FOR_GUARD = `{ read -r <&${GUARD_GATE_FD} && exec ${GUARD_GATE_FD}<&-; } || exit 125`;

export function withoutInlinePrefix(output: string, cwd: string): string {
  const prefix = inlinePrefix(cwd);
  return output.includes(prefix) ? output.split(prefix).join("") : output;
}

export interface LaunchOptions {
  command: string;
  cwd: string;
  snapshot: ShellSnapshot;
  /** Receives `pwd -P` after the command (foreground runs only). */
  cwdFile?: string;
  /**
   * Without a cwdFile: put the command inline rather than in eval, so bash execs its last program
   * (foreground runs, whose output the tool cleans of the wrapper with withoutInlinePrefix).
   */
  inline?: boolean;
  /** Where stdout and stderr go: pipes we read, or a file descriptor (background output file). */
  output: "pipe" | number;
  sandbox?: { bwrapPath: string; policy: SandboxPolicy };
}

/**
 * Spawns the shell as the leader of a new process group (detached) with stdin on /dev/null: a
 * timeout or abort can then signal the whole group, and a command that waits for input reads EOF
 * instead of hanging. Detaching also drops the controlling terminal, so nothing can prompt on it.
 */
export function launchShell(options: LaunchOptions): ChildProcess {
  const script = commandScript(options.command, options.cwd, options.cwdFile, options.inline);
  const shellArgs = ["-c", script];
  const [file, args] = options.sandbox
    ? sandboxCommandLine(options.sandbox.bwrapPath, options.sandbox.policy, [options.snapshot.shellPath, ...shellArgs])
    : [options.snapshot.shellPath, shellArgs];
  const filter = options.sandbox?.policy.seccompFilter;
  const stdio: Array<"ignore" | "pipe" | number> = ["ignore", options.output, options.output];
  // bwrap reads the seccomp program from a descriptor until EOF, before it starts the command.
  stdio[SECCOMP_FD] = filter ? "pipe" : "ignore";
  stdio[GUARD_GATE_FD] = "pipe";
  prepareOrphanGuard();
  // The stand-ins for paths a sandboxed command may not create are mount points bwrap makes on
  // the host; once bwrap is gone (and every process of its sandbox with it), they go too.
  const blocked = options.sandbox?.policy.blockedPaths ?? [];
  holdMountPoints(blocked);
  const child = spawn(file, args, { cwd: options.cwd, env: options.snapshot.env, detached: true, stdio });
  if (blocked.length > 0) {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      releaseMountPoints(blocked);
    };
    // At bwrap's exit, not only at "close": the call's result waits for the exit and its output,
    // not for the other pipes' close, and the folder must be as the command left it by then (a
    // test that listed it right after the result found the stand-ins still there, under load).
    // Its PID namespace ends with it, so nothing of the sandbox still uses the mount points.
    child.once("exit", release);
    child.once("close", release);
    child.once("error", release);
  }
  // Guarded before the command may start (see WAIT_FOR_GUARD): a Warden killed at any moment takes
  // the group with it. Whoever waits for the command releases the group once it is over (run-foreground, background tasks).
  if (child.pid !== undefined) guardProcessGroup(child.pid);
  const gate = child.stdio[GUARD_GATE_FD] as Writable | null;
  gate?.on("error", () => {});
  gate?.end("\n");
  const filterPipe = filter ? (child.stdio[SECCOMP_FD] as Writable | null) : null;
  // If bwrap dies before reading, the write fails with EPIPE; the command's own failure reports
  // that, and an unhandled stream error must not take Warden down with it.
  filterPipe?.on("error", () => {});
  filterPipe?.end(filter);
  return child;
}
