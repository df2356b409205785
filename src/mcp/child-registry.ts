// A last safety net against orphaned stdio servers: if the process exits without closing its MCP
// connections (an uncaught error, process.exit() somewhere), the children still get killed.
// Normal shutdown goes through McpClientManager.close(), which lets them exit cleanly first.

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

export function trackChild(pid: number): void {
  if (!hooked) {
    hooked = true;
    process.once("exit", killAll);
  }
  livePids.add(pid);
}

export function untrackChild(pid: number): void {
  livePids.delete(pid);
}
