// A last safety net against orphaned stdio servers: if the process ends without closing its MCP
// connections (an uncaught error, process.exit() somewhere, SIGTERM or SIGHUP from outside), the
// children are killed too. Normal shutdown goes through McpClientManager.close(), which lets them
// exit cleanly first. Servers that keep running after their stdin closes are why this exists.

import { guardProcess, releaseProcess } from "../process/orphan-guard.js";

const livePids = new Set<number>();
let hooked = false;

function killAll(): void {
  for (const pid of livePids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  livePids.clear();
}

/**
 * Kills the children, then lets the signal do what it would have done: when nobody else handles
 * it, it is raised again with our handler gone, so the process still ends by that signal.
 */
function onTerminatingSignal(signal: NodeJS.Signals): void {
  killAll();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

export function trackChild(pid: number): void {
  if (!hooked) {
    hooked = true;
    process.once("exit", killAll);
    process.once("SIGTERM", onTerminatingSignal);
    process.once("SIGHUP", onTerminatingSignal);
  }
  livePids.add(pid);
  // Handlers cannot run on SIGKILL: the out-of-process guard kills the server then.
  guardProcess(pid);
}

export function untrackChild(pid: number): void {
  livePids.delete(pid);
  releaseProcess(pid);
}
