// What a server connection is and is given: its states, its status as the session and /mcp show
// it, the options a connection is made with, and those of one call.
import type { McpClientFeatures } from "./client-features/types.js";
import type { McpConfigScope, McpServerConfig } from "./config.js";

export type McpServerState = "pending" | "connected" | "failed" | "needs-auth" | "disconnected" | "disabled" | "closed";

export interface McpServerStatus {
  name: string;
  scope: McpConfigScope;
  origin: string;
  transport?: McpServerConfig["type"];
  state: McpServerState;
  error?: string;
  toolCount: number;
  supportsResources: boolean;
  /** What the server called itself at the handshake, while connected. */
  serverInfo?: { name: string; version: string };
}

export interface ConnectionOptions {
  cwd: string;
  /** Variables the session adds to the processes it starts (settings `env`), for stdio servers. */
  env?: Readonly<Record<string, string>>;
  connectTimeoutMs: number;
  toolTimeoutMs: number;
  /** Called after the server's tool list was fetched again (list_changed, reconnect). */
  onToolsChanged?: () => void;
  /** What servers may ask of the session besides tools (questions, completions, roots, logs). */
  features?: McpClientFeatures;
}

export interface McpCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}
