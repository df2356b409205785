// Every command runs as the leader of its own process group, so one signal reaches everything it
// started: a pipeline, a `cmd &`, a dev server's workers. Killing only the shell would orphan them.
import { readdirSync, readFileSync } from "node:fs";
import { guardProcessGroup, releaseProcessGroup } from "./orphan-guard.js";

/** Time a group gets to exit on SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 1_000;

/** Sends a signal to a whole group; false when nothing is left to signal. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while the process exists and is not a zombie. A zombie has finished; it only waits for a
 * parent (or an init that may never reap it) to collect its status, so it counts as gone.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state letter follows the parenthesised command name, which may itself hold spaces.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return true;
  }
}

/** True while any member of the group is running (zombies aside). */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  return groupMembers(pgid).some(isProcessAlive);
}

function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirProc();
  } catch {
    return [pgid];
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields after the name: state, ppid, pgrp, ...
      if (Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return members;
}

function readdirProc(): string[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits up to `ms` for the group to empty; true if members are still running then. Members can
 * linger for a moment after the leader (a sandbox's init process tearing down), which is not a
 * process left behind.
 */
export async function groupOutlives(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isProcessGroupAlive(pgid)) {
    if (Date.now() >= deadline) return true;
    await sleep(10);
  }
  return false;
}

/**
 * SIGTERM to the group, then SIGKILL to whatever is still running after the grace period.
 * Resolves once the group is gone (or after the SIGKILL has had a moment to land).
 */
export async function killProcessGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!signalProcessGroup(pgid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(25);
    if (!isProcessGroupAlive(pgid)) return;
  }
  signalProcessGroup(pgid, "SIGKILL");
  for (let i = 0; i < 40 && isProcessGroupAlive(pgid); i++) await sleep(25);
}

/** Groups to kill if Warden exits while they run: no process of ours outlives the session. */
const groupsToKillOnExit = new Set<number>();
let exitHookInstalled = false;

export function killGroupOnExit(pgid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Only synchronous work is possible in an exit handler; SIGKILL needs no waiting.
    process.once("exit", () => {
      for (const group of groupsToKillOnExit) signalProcessGroup(group, "SIGKILL");
    });
  }
  groupsToKillOnExit.add(pgid);
  // The exit handler above cannot run on SIGKILL; the out-of-process guard can.
  guardProcessGroup(pgid);
}

export function forgetGroupOnExit(pgid: number): void {
  groupsToKillOnExit.delete(pgid);
  releaseProcessGroup(pgid);
}
