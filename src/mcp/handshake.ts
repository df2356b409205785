// Opening an SDK client to one server: the client with the features the session offers, its
// transport (taking over a stdio process started earlier), the initialize handshake and the tool
// list, all within one time limit. The SDK loads here, at the first connection.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import type { WardenOAuthProvider } from "./auth/provider.js";
import { hasServerAuth } from "./auth/store.js";
import { applyServerLogLevel, clientCapabilities, installClientFeatures } from "./client-features/index.js";
import type { McpClientFeatures } from "./client-features/types.js";
import type { McpServerConfig } from "./config.js";
import type { StdioServerProcess } from "./stdio-child.js";
import { type CreatedTransport, createTransport } from "./transport.js";

const CLIENT_INFO = { name: "warden", version: "0.1.0" };

export interface HandshakeRequest {
  name: string;
  config: McpServerConfig;
  cwd: string;
  /** Variables the session adds to the processes it starts (settings `env`), for stdio servers. */
  env?: Readonly<Record<string, string>>;
  features: McpClientFeatures;
  timeoutMs: number;
  /** A stdio server's process started earlier (McpServerConnection.startProcess), taken over. */
  early?: StdioServerProcess;
  authProvider?: WardenOAuthProvider;
  /** The server said its tool list changed (list_changed). */
  onToolsListChanged(): void;
  /**
   * The client and its transport exist, before the handshake: the caller keeps them, so that a
   * session closing meanwhile can end them instead of waiting for the handshake.
   */
  adopt(client: Client, created: CreatedTransport): void;
  isClosing(): boolean;
}

/**
 * Credentials for a remote server only when a login left some: a server without them costs no
 * auth code at all.
 */
export async function oauthProviderFor(
  name: string,
  config: McpServerConfig,
): Promise<WardenOAuthProvider | undefined> {
  if (config.type === "stdio" || !hasServerAuth(name, config.url)) return undefined;
  const { WardenOAuthProvider } = await import("./auth/provider.js");
  return new WardenOAuthProvider({ name, serverUrl: config.url });
}

/** Connects and lists the tools within `timeoutMs`; throws what went wrong. */
export async function handshake(request: HandshakeRequest): Promise<McpToolDefinition[]> {
  const { timeoutMs, features } = request;
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client(CLIENT_INFO, {
    capabilities: clientCapabilities(features),
    listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => request.onToolsListChanged() } },
  });
  await installClientFeatures(client, request.name, features);
  if (request.isClosing()) throw new Error("the session is closing");
  const created = await createTransport(request.config, request.cwd, request.early, request.env, request.authProvider);
  request.adopt(client, created);
  if (request.isClosing()) throw new Error("the session is closing");
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish connecting within ${timeoutMs} ms (MCP_TIMEOUT)`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(created.transport, { timeout: timeoutMs }), timedOut]);
    const tools = await Promise.race([listAllTools(client, timeoutMs), timedOut]);
    await Promise.race([applyServerLogLevel(client, features, timeoutMs), timedOut]);
    return tools;
  } finally {
    clearTimeout(timer);
  }
}

/** Every tool the server lists, page after page. */
export async function listAllTools(client: Client, timeoutMs: number): Promise<McpToolDefinition[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const all: McpToolDefinition[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    all.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
