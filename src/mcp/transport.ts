// Builds the SDK transport for one server config. The SDK modules are imported here, on first
// use, so a session without MCP servers never loads them. A stdio server's process may have been
// started earlier (stdio-child.ts); it is then taken over instead of started again.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "./config.js";
import { ChildStdioTransport, StderrTail, type StdioLaunch, StdioServerProcess } from "./stdio-child.js";

export interface CreatedTransport {
  transport: Transport;
  /** The child's pid for stdio servers, for the exit-time safety net. */
  pid(): number | null;
  stderr: StderrTail;
}

/** How a stdio server is launched: with the user's environment (PATH, tokens exported in the shell), as in Claude Code. */
export function stdioLaunch(
  config: Extract<McpServerConfig, { type: "stdio" }>,
  cwd: string,
  sessionEnv: Readonly<Record<string, string>> = {},
): StdioLaunch {
  return {
    command: config.command,
    args: config.args,
    // The session's own variables (settings `env`) under the server's: its config names it exactly.
    env: { ...stringEnv(process.env), ...sessionEnv, ...config.env },
    cwd: config.cwd ?? cwd,
  };
}

export async function createTransport(
  config: McpServerConfig,
  cwd: string,
  started?: StdioServerProcess,
  sessionEnv?: Readonly<Record<string, string>>,
  authProvider?: OAuthClientProvider,
): Promise<CreatedTransport> {
  if (config.type === "stdio") {
    const framing = await import("@modelcontextprotocol/sdk/shared/stdio.js");
    const server = started ?? new StdioServerProcess(stdioLaunch(config, cwd, sessionEnv));
    return { transport: new ChildStdioTransport(server, framing), pid: () => server.pid, stderr: server.stderr };
  }
  const stderr = new StderrTail();
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  // The providers' fetch over node:http: the global fetch would load undici (~40 MB) for MCP alone.
  const { httpFetch } = await import("../providers/http-fetch.js");
  if (config.type === "sse") {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    return {
      transport: new SSEClientTransport(url, {
        requestInit,
        fetch: httpFetch,
        ...(authProvider ? { authProvider } : {}),
      }),
      pid: () => null,
      stderr,
    };
  }
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  return {
    transport: new StreamableHTTPClientTransport(url, {
      requestInit,
      fetch: httpFetch,
      ...(authProvider ? { authProvider } : {}),
    }),
    pid: () => null,
    stderr,
  };
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
