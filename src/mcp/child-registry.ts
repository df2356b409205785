// A last safety net against orphaned stdio servers: if the process ends without closing its MCP
// connections (an uncaught error, process.exit() somewhere, SIGTERM or SIGHUP from outside), the
// children are killed too. Normal shutdown goes through McpClientManager.close(), which lets them
// exit cleanly first. Servers that keep running after their stdin closes are why this exists.
// Each server leads its own process group (./stdio-child.ts), so the whole group is killed: a
// server started through a shell or npx has children of its own.

import { guardProcessGroup, releaseProcessGroup } from "../process/orphan-guard.js";
import { signalProcessGroup } from "../process/process-group.js";

const livePids = new Set<number>();
let hooked = false;

function killAll(): void {
  for (const pid of livePids) signalProcessGroup(pid, "SIGKILL");
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
  // Handlers cannot run on SIGKILL: the out-of-process guard kills the server's group then.
  guardProcessGroup(pid);
}

export function untrackChild(pid: number): void {
  livePids.delete(pid);
  releaseProcessGroup(pid);
}
