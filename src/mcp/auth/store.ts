// Where the OAuth state of remote MCP servers is kept: one file in Warden's user folder, readable
// only by the user (0600), written atomically. Per server (its name and URL: a server moved to
// another URL starts over): the client registration, the tokens, and, during a login, the PKCE
// verifier and the redirect address. Tokens never go anywhere else: not to the transcript, not to
// the model, not to the logs. Reading it loads no MCP code, so a session can tell cheaply whether
// a server has credentials.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { wardenHome } from "../../config/paths.js";

export interface StoredServerAuth {
  serverUrl: string;
  /** What dynamic client registration returned (or a pre-registered client's id). */
  clientInformation?: Record<string, unknown>;
  /** The redirect URL the client was registered with. */
  redirectUrl?: string;
  tokens?: Record<string, unknown>;
  /** When the tokens were saved (ms), to know their age against expires_in. */
  tokensSavedAt?: number;
  codeVerifier?: string;
}

interface StoreFile {
  version: 1;
  servers: Record<string, StoredServerAuth>;
}

export function authStorePath(): string {
  return join(wardenHome(), "mcp-oauth.json");
}

function key(name: string, serverUrl: string): string {
  return `${name}|${serverUrl}`;
}

function readStore(): StoreFile {
  try {
    const parsed = JSON.parse(readFileSync(authStorePath(), "utf8")) as Partial<StoreFile>;
    if (parsed && typeof parsed.servers === "object" && parsed.servers !== null) {
      return { version: 1, servers: parsed.servers };
    }
  } catch {
    // Missing or unreadable: no credentials.
  }
  return { version: 1, servers: {} };
}

function writeStore(store: StoreFile): void {
  const path = authStorePath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  // Created 0600 before any secret is written into it; the rename keeps the mode.
  writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

export function readServerAuth(name: string, serverUrl: string): StoredServerAuth | undefined {
  return readStore().servers[key(name, serverUrl)];
}

/** Whether a server has anything to authenticate with (tokens, or at least a registration). */
export function hasServerAuth(name: string, serverUrl: string): boolean {
  const entry = readServerAuth(name, serverUrl);
  return entry?.tokens !== undefined;
}

export function updateServerAuth(
  name: string,
  serverUrl: string,
  update: (entry: StoredServerAuth) => StoredServerAuth,
): void {
  const store = readStore();
  const k = key(name, serverUrl);
  store.servers[k] = update(store.servers[k] ?? { serverUrl });
  writeStore(store);
}

/** Forgets a server's credentials (every URL it had); returns whether there were any. */
export function removeServerAuth(name: string): boolean {
  const store = readStore();
  const keys = Object.keys(store.servers).filter((k) => k.startsWith(`${name}|`));
  for (const k of keys) delete store.servers[k];
  if (keys.length === 0) return false;
  if (Object.keys(store.servers).length === 0) rmSync(authStorePath(), { force: true });
  else writeStore(store);
  return true;
}
