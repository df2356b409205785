// Builds the SDK transport for one server config. The SDK modules are imported here, on first
// use, so a session without MCP servers never loads them.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { prepareOrphanGuard } from "../process/orphan-guard.js";
import { trackChild } from "./child-registry.js";
import type { McpServerConfig } from "./config.js";

/** The last part of a stdio server's stderr, kept to explain a crash or a failed start. */
export class StderrTail {
  private text = "";
  constructor(private readonly maxChars = 4000) {}
  append(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.maxChars);
  }
  toString(): string {
    return this.text.trim();
  }
}

export interface CreatedTransport {
  transport: Transport;
  /** The child's pid for stdio servers (after start), for the exit-time safety net. */
  pid(): number | null;
  stderr: StderrTail;
}

export async function createTransport(config: McpServerConfig, cwd: string): Promise<CreatedTransport> {
  const stderr = new StderrTail();
  if (config.type === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    // Tracked from the moment it exists, so a Warden killed while a server is still starting
    // does not leave that server behind.
    class TrackedStdioTransport extends StdioClientTransport {
      override async start(): Promise<void> {
        // The watcher starts first, so guarding the server is one write to its pipe; the SDK
        // spawns synchronously inside start(), so the pid is known before its promise settles
        // and the server is guarded in the same turn of the event loop as its spawn.
        prepareOrphanGuard();
        const started = super.start();
        if (this.pid !== null) trackChild(this.pid);
        await started;
      }
    }
    const transport = new TrackedStdioTransport({
      command: config.command,
      args: config.args,
      // Servers expect the user's environment (PATH, tokens exported in the shell), as in Claude Code.
      env: { ...stringEnv(process.env), ...config.env },
      cwd: config.cwd ?? cwd,
      stderr: "pipe",
    });
    // Read stderr from the start so a server that fails at once can be explained, and so a
    // chatty server never blocks on a full pipe.
    transport.stderr?.on("data", (chunk: Buffer) => stderr.append(chunk));
    return { transport, pid: () => transport.pid, stderr };
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  // The providers' fetch over node:http: the global fetch would load undici (~40 MB) for MCP alone.
  const { httpFetch } = await import("../providers/http-fetch.js");
  if (config.type === "sse") {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    return { transport: new SSEClientTransport(url, { requestInit, fetch: httpFetch }), pid: () => null, stderr };
  }
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  return {
    transport: new StreamableHTTPClientTransport(url, { requestInit, fetch: httpFetch }),
    pid: () => null,
    stderr,
  };
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
