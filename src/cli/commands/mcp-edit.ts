// `warden mcp add | remove | get | approve`, in the shapes of Claude Code's `claude mcp` commands:
//   warden mcp add [-s local|project|user] [-e KEY=VALUE...] NAME -- COMMAND [ARGS...]
//   warden mcp add --transport http|sse [-s SCOPE] [-H "Name: value"...] NAME URL
//   warden mcp remove NAME [-s SCOPE]        warden mcp get NAME        warden mcp approve NAME
// The writing is in mcp/config-edit.ts; this file parses and reports.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { MCP_EDIT_SCOPES, type McpEditScope } from "../../mcp/config-edit.js";

const out = (text: string) => void process.stdout.write(text);

/** Bad command-line input: exit code 2. */
export class McpUsageError extends Error {}

export const EDIT_USAGE = `  warden mcp add [--scope local|project|user] [-e KEY=VALUE...] <name> -- <command> [args...]
  warden mcp add --transport http|sse [--scope local|project|user] [-H "Name: value"...] <name> <url>
  warden mcp remove <name> [--scope local|project|user]
  warden mcp get <name> [--json]
  warden mcp approve <name>

Scopes (where add writes): local (default; this project, only you: .warden/settings.local.json),
project (shared with the repository: .mcp.json), user (all your projects: ~/.warden/settings.json).
Project servers start once approved (warden mcp approve) in a folder you trust (warden trust).
`;

function scopeOf(value: string | undefined): McpEditScope | undefined {
  if (value === undefined) return undefined;
  if (!(MCP_EDIT_SCOPES as readonly string[]).includes(value)) {
    throw new McpUsageError(`--scope must be local, project or user, not ${JSON.stringify(value)}`);
  }
  return value as McpEditScope;
}

function envPairs(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq <= 0) throw new McpUsageError(`-e takes KEY=VALUE, not ${JSON.stringify(value)}`);
    env[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return env;
}

function headerPairs(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    const name = colon > 0 ? value.slice(0, colon).trim() : "";
    if (name === "" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new McpUsageError(`-H takes "Name: value", not ${JSON.stringify(value)}`);
    }
    headers[name] = value.slice(colon + 1).trim();
  }
  return headers;
}

export async function add(argv: string[]): Promise<number> {
  const split = argv.indexOf("--");
  const before = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  const { values, positionals } = parseArgs({
    args: before,
    allowPositionals: true,
    options: {
      transport: { type: "string", short: "t" },
      scope: { type: "string", short: "s" },
      env: { type: "string", short: "e", multiple: true },
      header: { type: "string", short: "H", multiple: true },
      cwd: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    out(`Usage:\n${EDIT_USAGE}`);
    return 0;
  }
  const cwd = resolve(values.cwd ?? ".");
  const scope = scopeOf(values.scope) ?? "local";
  const transport = values.transport ?? "stdio";
  const [name, ...rest] = positionals;
  if (name === undefined) throw new McpUsageError("add needs a server name");
  let config: Record<string, unknown>;
  let description: string;
  if (transport === "stdio") {
    if (values.header?.length) throw new McpUsageError("-H is for http and sse servers (--transport http|sse)");
    const [program, ...args] = [...rest, ...command];
    if (program === undefined)
      throw new McpUsageError(`add ${name} needs a command: warden mcp add ${name} -- <command> [args...]`);
    const env = envPairs(values.env ?? []);
    config = { type: "stdio", command: program, args, ...(Object.keys(env).length > 0 && { env }) };
    description = `stdio MCP server ${name} with command: ${[program, ...args].join(" ")}`;
  } else if (transport === "http" || transport === "sse") {
    if (values.env?.length) throw new McpUsageError("-e is for stdio servers; http and sse servers take -H headers");
    if (command.length > 0 || rest.length !== 1) {
      throw new McpUsageError(
        `add --transport ${transport} takes a name and one URL: warden mcp add --transport ${transport} <name> <url>`,
      );
    }
    const headers = headerPairs(values.header ?? []);
    config = { type: transport, url: rest[0], ...(Object.keys(headers).length > 0 && { headers }) };
    description = `${transport} MCP server ${name} with URL: ${rest[0]}`;
  } else {
    throw new McpUsageError(`--transport must be stdio, http or sse, not ${JSON.stringify(transport)}`);
  }
  const { addMcpServer } = await import("../../mcp/config-edit.js");
  const path = addMcpServer(scope, cwd, name, config);
  out(`Added ${description} to ${scope} config\nFile modified: ${path}\n`);
  if (scope === "project") {
    out(`Project servers start once approved: warden mcp approve ${name} (and in a folder you trust: warden trust)\n`);
  }
  return 0;
}

export async function remove(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { scope: { type: "string", short: "s" }, cwd: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    out(`Usage:\n${EDIT_USAGE}`);
    return 0;
  }
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0) throw new McpUsageError("remove takes one server name");
  const { removeMcpServer } = await import("../../mcp/config-edit.js");
  const removed = removeMcpServer(resolve(values.cwd ?? "."), name, scopeOf(values.scope));
  out(`Removed MCP server ${name} from ${removed.scope} config\nFile modified: ${removed.path}\n`);
  return 0;
}

export async function approve(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { cwd: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    out(`Usage:\n${EDIT_USAGE}`);
    return 0;
  }
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0) throw new McpUsageError("approve takes one server name");
  const cwd = resolve(values.cwd ?? ".");
  const [{ loadSettings }, { loadMcpServerEntries }, { approveProjectMcpServer }] = await Promise.all([
    import("../../config/settings.js"),
    import("../../mcp/config-sources.js"),
    import("../../mcp/config-edit.js"),
  ]);
  const entry = loadMcpServerEntries({ cwd, settings: loadSettings({ cwd }), listUntrusted: true }).servers.find(
    (s) => s.name === name,
  );
  if (!entry) throw new McpUsageError(`no MCP server named "${name}" is configured here`);
  if (entry.scope !== "mcpjson" && entry.scope !== "project") {
    throw new McpUsageError(
      `"${name}" is a ${entry.scope} server (${entry.origin}): only project servers need approval`,
    );
  }
  const path = approveProjectMcpServer(cwd, name);
  out(`Approved project MCP server ${name} for this folder\nFile modified: ${path}\n`);
  const after = loadMcpServerEntries({ cwd, settings: loadSettings({ cwd }), listUntrusted: true }).servers.find(
    (s) => s.name === name,
  );
  if (after?.problem) out(`It does not start yet: ${after.problem}\n`);
  return 0;
}

/** The entry with environment and header values left out (often credentials); their names stay. */
function withoutSecrets<T extends { config?: { type: string } }>(entry: T): T {
  const config = entry.config as Record<string, unknown> | undefined;
  if (!config) return entry;
  const hide = (record: unknown) =>
    Object.fromEntries(Object.keys((record as Record<string, string>) ?? {}).map((key) => [key, "(set)"]));
  const shown = { ...config };
  if (shown.env) shown.env = hide(shown.env);
  if (shown.headers) shown.headers = hide(shown.headers);
  return { ...entry, config: shown };
}

export async function get(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { cwd: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    out(`Usage:\n${EDIT_USAGE}`);
    return 0;
  }
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0) throw new McpUsageError("get takes one server name");
  const cwd = resolve(values.cwd ?? ".");
  const [{ loadSettings }, { loadMcpServerEntries }] = await Promise.all([
    import("../../config/settings.js"),
    import("../../mcp/config-sources.js"),
  ]);
  const entry = loadMcpServerEntries({ cwd, settings: loadSettings({ cwd }), listUntrusted: true }).servers.find(
    (s) => s.name === name,
  );
  if (!entry) throw new McpUsageError(`no MCP server named "${name}" is configured here`);
  if (values.json) {
    out(`${JSON.stringify(withoutSecrets(entry), null, 2)}\n`);
    return 0;
  }
  const lines = [
    `${name}:`,
    `  Scope: ${entry.scope} (${entry.origin})`,
    `  Type: ${entry.config?.type ?? entry.transport ?? "?"}`,
  ];
  const config = entry.config;
  if (config?.type === "stdio") {
    lines.push(`  Command: ${config.command}`, `  Args: ${config.args.join(" ")}`);
    // Values are often credentials: their names only.
    if (Object.keys(config.env).length > 0) lines.push(`  Environment: ${Object.keys(config.env).join(", ")}`);
  } else if (config) {
    lines.push(`  URL: ${config.url}`);
    if (Object.keys(config.headers).length > 0) lines.push(`  Headers: ${Object.keys(config.headers).join(", ")}`);
  }
  lines.push(`  Status: ${entry.problem ? `not started: ${entry.problem}` : "configured"}`);
  out(`${lines.join("\n")}\n`);
  return 0;
}
