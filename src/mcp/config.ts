// MCP server configuration in the shape Claude Code users already have: the `mcpServers` object of
// `.mcp.json`, of settings files and of `--mcp-config` files. Each server is checked on its own so
// one broken entry costs only that server.
import * as z from "zod";
import { expandEnvVars, expandRecord } from "./env-expansion.js";

export type McpServerConfig =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { type: "http"; url: string; headers: Record<string, string> }
  | { type: "sse"; url: string; headers: Record<string, string> };

/**
 * Where a server was configured. `project` and `mcpjson` servers come from files checked into the
 * repository: they run commands on this machine, so they need the user's approval first.
 * `dynamic` servers were added while the session ran (the Agent SDK's mcp_set_servers).
 */
export type McpConfigScope = "user" | "project" | "local" | "mcpjson" | "cli" | "policy" | "dynamic";

export interface McpServerEntry {
  name: string;
  scope: McpConfigScope;
  /** The file (or `--mcp-config`) the entry came from. */
  origin: string;
  /** Absent when the entry could not be used; `problem` then says why. */
  config?: McpServerConfig;
  problem?: string;
  /** The transport the entry names, known even when it cannot be used (`warden mcp list` shows it). */
  transport?: McpServerConfig["type"];
}

/** The transport a raw server entry asks for (stdio when it names none), or undefined when unknown. */
export function declaredTransport(raw: unknown): McpServerConfig["type"] | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const type = (raw as { type?: unknown }).type;
  if (type === undefined || type === "stdio") return "stdio";
  if (type === "http" || type === "streamable-http") return "http";
  if (type === "sse") return "sse";
  return undefined;
}

const stdioSchema = z.lazy(() =>
  z.object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1, "command must not be empty"),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
  }),
);

const remoteSchema = z.lazy(() =>
  z.object({
    type: z.enum(["http", "sse", "streamable-http"]),
    url: z.string().min(1, "url must not be empty"),
    headers: z.record(z.string(), z.string()).default({}),
  }),
);

/** Server names become part of tool names (`mcp__<server>__<tool>`): keep them to safe characters. */
export function normalizeNameForMcp(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/**
 * zod's plain parser: for an object schema zod otherwise writes a parser as source and compiles it
 * on the schema's first parse (~2 ms in every session with a server, before its first request),
 * more than the few entries a session checks would ever save.
 */
const INTERPRETED = { jitless: true } as const;

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`).join("; ");
}

function checkUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url is not a valid URL: ${url}`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `url must be http(s), got ${parsed.protocol}`;
  return undefined;
}

/** Validates one server entry and expands its `${VAR}` references. */
export function parseServerConfig(
  name: string,
  raw: unknown,
  scope: McpConfigScope,
  origin: string,
  env: NodeJS.ProcessEnv = process.env,
): McpServerEntry {
  const transport = declaredTransport(raw);
  const entry = { name, scope, origin, ...(transport && { transport }) };
  // As in Claude Code: the name goes verbatim into tool names and rules (`mcp__<server>__...`).
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    return { ...entry, problem: `server name "${name}" may only use letters, digits, "_" and "-"` };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ...entry, problem: "server config must be a JSON object" };
  }
  const type = (raw as { type?: unknown }).type;
  const missing: string[] = [];
  const expand = (text: string) => {
    const result = expandEnvVars(text, env);
    missing.push(...result.missing);
    return result.value;
  };
  let config: McpServerConfig;
  if (type === undefined || type === "stdio") {
    const parsed = stdioSchema.safeParse(raw, INTERPRETED);
    if (!parsed.success) return { ...entry, problem: describeIssues(parsed.error) };
    config = {
      type: "stdio",
      command: expand(parsed.data.command),
      args: parsed.data.args.map(expand),
      env: expandRecord(parsed.data.env, env, missing),
      ...(parsed.data.cwd !== undefined ? { cwd: expand(parsed.data.cwd) } : {}),
    };
  } else if (type === "http" || type === "sse" || type === "streamable-http") {
    const parsed = remoteSchema.safeParse(raw, INTERPRETED);
    if (!parsed.success) return { ...entry, problem: describeIssues(parsed.error) };
    const url = expand(parsed.data.url);
    const headers = expandRecord(parsed.data.headers, env, missing);
    if (missing.length === 0) {
      const urlProblem = checkUrl(url);
      if (urlProblem) return { ...entry, problem: urlProblem };
    }
    config = { type: parsed.data.type === "sse" ? "sse" : "http", url, headers };
  } else {
    return { ...entry, problem: `unsupported server type ${JSON.stringify(type)} (use stdio, http or sse)` };
  }
  if (missing.length > 0) {
    const names = [...new Set(missing)].join(", ");
    return { ...entry, problem: `missing environment variable(s) ${names} (set them, or write \${VAR:-default})` };
  }
  return { ...entry, config };
}

/** The `mcpServers` object of a parsed config file, or undefined when it has none of the right shape. */
export function serversObjectOf(json: unknown): Record<string, unknown> | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  const servers = record.mcpServers;
  if (servers === undefined) return undefined;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return undefined;
  return servers as Record<string, unknown>;
}
