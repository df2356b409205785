// Ending one server's connection for good: the SDK client (or a transport that never got one), a
// stdio server's process with it, and a process started early that no transport took over. Many
// servers never exit on the end of their stdin, so none is left to decide on its own.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { signalProcessGroup } from "../process/process-group.js";
import { untrackChild } from "./child-registry.js";
import type { StdioServerProcess } from "./stdio-child.js";
import type { CreatedTransport } from "./transport.js";

const STDIO_EXIT_GRACE_MS = 200;

export interface OpenTransport {
  client?: Client;
  created?: CreatedTransport;
  /** A stdio server's process started before connecting, not taken over by a transport. */
  early?: StdioServerProcess;
}

/** Closes what is open and kills the stdio child; never throws. */
export async function closeTransport({ client, created, early }: OpenTransport): Promise<void> {
  if (early) {
    if (early.pid) untrackChild(early.pid);
    early.kill("SIGKILL");
  }
  const pid = created?.pid();
  // The SDK ends the child's stdin and then waits 2 s before SIGTERM; many servers never exit
  // on EOF, so every session would pause at exit. Give them a short grace, then SIGTERM.
  const term = pid ? setTimeout(() => signalProcessGroup(pid, "SIGTERM"), STDIO_EXIT_GRACE_MS) : undefined;
  try {
    if (client) await client.close();
    else await created?.transport.close();
  } catch {
    // Closing a broken transport may fail; the child is killed below either way.
  } finally {
    clearTimeout(term);
  }
  if (pid) {
    untrackChild(pid);
    // The server leads its own group: what it started goes with it.
    signalProcessGroup(pid, "SIGKILL");
  }
}
