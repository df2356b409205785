// No process of a session outlives it, not even when Warden is killed with SIGKILL.
//
// Exit handlers and signal handlers cannot run on SIGKILL, and a parent-death signal (prctl
// PR_SET_PDEATHSIG, `setpriv --pdeathsig`) reaches only the direct child, not the pipeline or the
// `cmd &` a shell started in its process group. So the session keeps one small watcher process
// outside every group it guards: Warden tells it, over a pipe, which process groups and processes
// are running; when that pipe reaches end-of-file (Warden exited, however it died: the kernel
// closes the write end with the process), the watcher kills everything still on its list and
// exits. Nothing in between can be skipped, because nothing in Warden has to run for it to fire.
//
// The watcher is a POSIX shell running only builtins, started on the first guarded child (never at
// start-up), in a session of its own so a Ctrl+C or a closed terminal aimed at Warden's group does
// not take it down first. Node opens its pipes close-on-exec, so no other child holds the write
// end open after Warden is gone.
import { type ChildProcess, spawn } from "node:child_process";
import { writeSync } from "node:fs";

/**
 * Reads `+g PGID`, `-g PGID`, `+p PID`, `-p PID` lines; at end of input kills each process group
 * (kill -KILL -PGID; dash's kill takes no `--`) and each process still listed.
 */
const WATCHER_SCRIPT = [
  "trap '' INT HUP TERM QUIT",
  'groups=""; pids=""',
  'drop() { out=\'\'; for x in $1; do [ "$x" = "$2" ] || out="$out $x"; done; echo "$out"; }',
  "while IFS=' ' read -r op id; do",
  '  case "$op" in',
  '    +g) groups="$groups $id" ;;',
  '    -g) groups=$(drop "$groups" "$id") ;;',
  '    +p) pids="$pids $id" ;;',
  '    -p) pids=$(drop "$pids" "$id") ;;',
  "  esac",
  "done",
  'for g in $groups; do kill -KILL "-$g" 2>/dev/null; done',
  'for p in $pids; do kill -KILL "$p" 2>/dev/null; done',
].join("\n");

type Kind = "g" | "p";

const guarded = new Map<string, { kind: Kind; id: number }>();
let watcher: ChildProcess | undefined;

function key(kind: Kind, id: number): string {
  return `${kind}${id}`;
}

function startWatcher(): ChildProcess | undefined {
  let child: ChildProcess;
  try {
    child = spawn("/bin/sh", ["-c", WATCHER_SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  } catch {
    return undefined;
  }
  // A watcher that cannot start or dies leaves the in-process exit handlers as the only net; the
  // next guarded child starts a new one and hands it the whole list.
  child.once("error", () => forgetWatcher(child));
  child.once("exit", () => forgetWatcher(child));
  child.stdin?.on("error", () => forgetWatcher(child));
  // Neither the watcher nor its pipe may keep Warden's event loop alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  const lines = [...guarded.values()].map((entry) => `+${entry.kind} ${entry.id}\n`).join("");
  if (lines) writeNow(child, lines);
  return child;
}

/**
 * Writes straight into the pipe, before the caller returns to the event loop: a stream write
 * would wait for the next turn of the loop, and a Warden killed in that gap (a busy machine, a
 * command that starts work at once) would leave the new group unguarded. The lines are tiny and
 * the watcher drains the pipe continuously, so the non-blocking write completes; should the pipe
 * ever be full, the stream write takes over.
 */
function writeNow(child: ChildProcess, text: string): void {
  const fd = (child.stdin as unknown as { _handle?: { fd?: number } } | null)?._handle?.fd;
  if (typeof fd === "number" && fd >= 0) {
    try {
      const written = writeSync(fd, text);
      if (written === Buffer.byteLength(text)) return;
      child.stdin?.write(Buffer.from(text).subarray(written));
      return;
    } catch {
      // EAGAIN or a closed pipe: fall through to the stream, which reports errors on its own.
    }
  }
  child.stdin?.write(text);
}

function forgetWatcher(child: ChildProcess): void {
  if (watcher === child) watcher = undefined;
}

function send(line: string): void {
  if (!watcher || watcher.stdin?.destroyed) watcher = startWatcher();
  else writeNow(watcher, line);
}

function guard(kind: Kind, id: number): void {
  if (!Number.isInteger(id) || id <= 1) return;
  const k = key(kind, id);
  if (guarded.has(k)) return;
  guarded.set(k, { kind, id });
  // startWatcher sends the whole list, this entry included, when it has to start one.
  send(`+${kind} ${id}\n`);
}

function release(kind: Kind, id: number): void {
  if (!guarded.delete(key(kind, id))) return;
  if (watcher && !watcher.stdin?.destroyed) writeNow(watcher, `-${kind} ${id}\n`);
}

/**
 * Starts the watcher ahead of the first child, so that guarding that child is one write to a pipe
 * rather than a process start (a window in which a killed Warden would leave the child unguarded).
 */
export function prepareOrphanGuard(): void {
  if (!watcher || watcher.stdin?.destroyed) watcher = startWatcher();
}

/** Kill this process group (its leader's pid) if Warden dies while it runs. */
export function guardProcessGroup(pgid: number): void {
  guard("g", pgid);
}

/** The group ended (or was killed) normally: its id may be reused, so stop guarding it. */
export function releaseProcessGroup(pgid: number): void {
  release("g", pgid);
}

/** Kill this single process (not a group leader) if Warden dies. */
export function guardProcess(pid: number): void {
  guard("p", pid);
}

export function releaseProcess(pid: number): void {
  release("p", pid);
}

/** The watcher's pid, for tests that check it is not itself left behind. */
export function orphanGuardPid(): number | undefined {
  return watcher?.pid;
}
