// Each MCP server's tool list as the project's last session found it, so that the next session
// can send its first request at once, naming those tools, while the servers are still starting.
// Kept in the project's folder under ~/.warden/projects/ (mcp-tools.json): per server, a hash of
// its configuration (another command, URL or environment is another server, never remembered for
// it), the tool definitions and a hash of them (the live list is compared by that hash alone), and
// the server's instructions. A missing, unreadable or malformed file is an empty memory: it only
// costs the wait it would have saved.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import { projectDataDir } from "../config/paths.js";
import { writeFileAtomicSync } from "../fs/atomic-write.js";
import { withFileLockSync } from "../fs/file-lock.js";
import type { McpServerConfig } from "./config.js";

export interface RememberedServer {
  /** Hash of the server's configuration when its tools were listed. */
  configHash: string;
  /** Hash of `tools`: names, descriptions, schemas and annotations. */
  toolsHash: string;
  tools: McpToolDefinition[];
  instructions?: string;
  /** Whether it offered resources (the resource tools are offered for it while it connects). */
  resources?: boolean;
}

interface RememberedFile {
  version: 1;
  servers: Record<string, RememberedServer>;
}

const FILE_NAME = "mcp-tools.json";

export function rememberedToolsPath(cwd: string): string {
  return join(projectDataDir(cwd), FILE_NAME);
}

function sha256(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

/** A server's configuration, hashed: its secrets (env, headers) never reach the file. */
export function hashServerConfig(config: McpServerConfig): string {
  return sha256(config);
}

/** The tool definitions, hashed in the order the server lists them. */
export function hashToolDefinitions(tools: readonly McpToolDefinition[]): string {
  return sha256(tools);
}

function isRememberedServer(value: unknown): value is RememberedServer {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Partial<RememberedServer>;
  return (
    typeof entry.configHash === "string" &&
    typeof entry.toolsHash === "string" &&
    Array.isArray(entry.tools) &&
    entry.tools.every(
      (t) => typeof t === "object" && t !== null && typeof (t as { name?: unknown }).name === "string",
    ) &&
    (entry.instructions === undefined || typeof entry.instructions === "string") &&
    (entry.resources === undefined || typeof entry.resources === "boolean")
  );
}

function readFile(path: string): RememberedFile {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<RememberedFile>;
    if (parsed.version !== 1 || typeof parsed.servers !== "object" || parsed.servers === null) throw new Error();
    const servers: Record<string, RememberedServer> = {};
    for (const [name, entry] of Object.entries(parsed.servers)) if (isRememberedServer(entry)) servers[name] = entry;
    return { version: 1, servers };
  } catch {
    return { version: 1, servers: {} };
  }
}

/**
 * What the project's last session found, for the servers configured now: a server whose
 * configuration changed since is left out (it is waited for like a new one).
 */
export function loadRememberedTools(
  cwd: string,
  servers: ReadonlyArray<{ name: string; config?: McpServerConfig }>,
): Map<string, RememberedServer> {
  const file = readFile(rememberedToolsPath(cwd));
  const found = new Map<string, RememberedServer>();
  for (const server of servers) {
    const entry = file.servers[server.name];
    if (entry && server.config && entry.configHash === hashServerConfig(server.config)) found.set(server.name, entry);
  }
  return found;
}

/**
 * Records what a server offers now. Written only when it differs from the file, under a lock so
 * two sessions of one project do not lose each other's servers. Never throws: a memory that cannot
 * be written costs the next session a wait, nothing else.
 */
export function rememberServerTools(cwd: string, name: string, entry: RememberedServer): void {
  const path = rememberedToolsPath(cwd);
  try {
    mkdirSync(projectDataDir(cwd), { recursive: true });
    withFileLockSync(`${path}.lock`, () => {
      const file = readFile(path);
      const old = file.servers[name];
      if (
        old &&
        old.configHash === entry.configHash &&
        old.toolsHash === entry.toolsHash &&
        old.instructions === entry.instructions &&
        old.resources === entry.resources
      )
        return;
      file.servers[name] = entry;
      writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(file)}\n`));
    });
  } catch {
    // See above: best effort.
  }
}
