// `warden mcp list`: the configured MCP servers, their state and tool counts.
// `warden mcp add | remove | get | approve`: editing them, as `claude mcp` does (./mcp-edit.ts).
// `warden mcp serve [--port N]`: Warden's built-in tools as an MCP server (stdio, or streamable
// HTTP on 127.0.0.1:N) under the permission engine with a headless policy.
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { sessionArtifactsDir } from "../../config/paths.js";
import type { McpServerStatus } from "../../mcp/connection-types.js";
import { untilStopSignal } from "../../process/until-stop-signal.js";
import { wardenVersion } from "../version.js";
import { add, approve, EDIT_USAGE, get, McpUsageError, remove } from "./mcp-edit.js";

const out = (text: string) => void process.stdout.write(text);
const err = (text: string) => void process.stderr.write(text);

const USAGE = `Usage:
  warden mcp list  [--mcp-config <file-or-json>...] [--strict-mcp-config] [--settings <file-or-json>] [--cwd <dir>] [--json]
  warden mcp login NAME  [--mcp-config ...] [--settings ...] [--cwd <dir>]   sign in to an HTTP or SSE server (OAuth)
  warden mcp logout NAME                                                  forget the server's stored tokens
  warden mcp serve [--port <n> [--token-file <file>]] [--allowedTools <rules...>] [--disallowedTools <rules...>]
                   [--permission-mode <mode>] [--settings <file-or-json>] [--add-dir <dir>...] [--cwd <dir>]
                   [--trust-project]
${EDIT_USAGE}
serve speaks MCP over stdio, or over streamable HTTP at http://127.0.0.1:<n>/mcp with --port,
where every request must carry the token it prints on stderr (and writes, owner-only, to
--token-file) as 'Authorization: Bearer <token>':
the built-in tools, files as file:// resources (read under the same rules as Read), path
completions, log messages and progress. Calls that would need approval are denied with the
reason (nobody can be asked).
A folder's own settings only restrict until you trust it (warden trust), or with --trust-project.
`;

/** Bad command-line input: exit code 2, as for the session command. */
class UsageError extends Error {}

function isUsageError(error: unknown): boolean {
  // node:util parseArgs reports unknown options and missing values as TypeErrors with an ERR_PARSE_ARGS code.
  return (
    error instanceof UsageError ||
    error instanceof McpUsageError ||
    (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS"))
  );
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === "list") return await list(rest);
    if (sub === "login") return await login(rest);
    if (sub === "logout") return await logout(rest);
    if (sub === "serve") return await serve(rest);
    if (sub === "add") return await add(rest);
    if (sub === "remove") return await remove(rest);
    if (sub === "get") return await get(rest);
    if (sub === "approve") return await approve(rest);
  } catch (error) {
    err(`warden mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return isUsageError(error) ? 2 : 1;
  }
  if (sub === "help" || sub === "--help" || sub === "-h") {
    out(USAGE);
    return 0;
  }
  if (sub === undefined) {
    err(USAGE);
    return 2;
  }
  err(`warden mcp: unknown subcommand ${JSON.stringify(sub)}\n\n${USAGE}`);
  return 2;
}

function describeStatus(status: McpServerStatus): string {
  const tools = status.state === "connected" ? `${status.toolCount} tool${status.toolCount === 1 ? "" : "s"}` : "-";
  const line = `${status.name.padEnd(20)} ${(status.transport ?? "?").padEnd(6)} ${status.state.padEnd(12)} ${tools.padEnd(9)} ${status.scope}: ${status.origin}`;
  return status.error ? `${line}\n    ${status.error.replace(/\n/g, "\n    ")}` : line;
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      "mcp-config": { type: "string", multiple: true },
      "strict-mcp-config": { type: "boolean" },
      settings: { type: "string" },
      cwd: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const cwd = resolve(values.cwd ?? ".");
  const [{ loadSettings }, { loadMcpServerEntries, serversDisabledForProject }, { McpClientManager }] =
    await Promise.all([
      import("../../config/settings.js"),
      import("../../mcp/config-sources.js"),
      import("../../mcp/manager.js"),
    ]);
  const settings = loadSettings({ cwd, extraSettings: values.settings ? [values.settings] : [] });
  const { mcpConfigArgProblems } = await import("../../mcp/config-sources.js");
  const argProblems = mcpConfigArgProblems(values["mcp-config"] ?? [], cwd);
  if (argProblems.length > 0) throw new UsageError(`bad --mcp-config: ${argProblems.join("; ")}`);
  const load = loadMcpServerEntries({
    cwd,
    settings,
    listUntrusted: true,
    mcpConfigArgs: values["mcp-config"] ?? [],
    strict: values["strict-mcp-config"] === true,
  });
  for (const problem of load.fileProblems) err(`warden mcp: ${problem}\n`);
  // Servers turned off for this project are listed as disabled, not started.
  const disabled = serversDisabledForProject(settings);
  const manager = new McpClientManager(load.servers, { cwd, isDisabled: (name) => disabled.has(name) });
  try {
    await manager.connectAll();
    const statuses = manager.statuses();
    if (values.json) {
      out(`${JSON.stringify(statuses, null, 2)}\n`);
    } else if (statuses.length === 0) {
      out("No MCP servers configured (.mcp.json, settings mcpServers, or --mcp-config).\n");
    } else {
      out(`${"NAME".padEnd(20)} ${"TYPE".padEnd(6)} ${"STATE".padEnd(12)} ${"TOOLS".padEnd(9)} SOURCE\n`);
      for (const status of statuses) out(`${describeStatus(status)}\n`);
    }
  } finally {
    await manager.close();
  }
  return 0;
}

/**
 * Signs in to one remote server: prints the page to open, waits on 127.0.0.1 for the browser to
 * come back, saves the tokens (0600, ~/.warden/mcp-oauth.json) and connects to show it worked.
 */
async function login(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "mcp-config": { type: "string", multiple: true },
      "strict-mcp-config": { type: "boolean" },
      settings: { type: "string" },
      cwd: { type: "string" },
    },
  });
  const name = positionals[0];
  if (!name || positionals.length > 1) throw new UsageError("login takes one server name: warden mcp login NAME");
  const cwd = resolve(values.cwd ?? ".");
  const [{ loadSettings }, { loadMcpServerEntries }, { McpClientManager }] = await Promise.all([
    import("../../config/settings.js"),
    import("../../mcp/config-sources.js"),
    import("../../mcp/manager.js"),
  ]);
  const settings = loadSettings({ cwd, extraSettings: values.settings ? [values.settings] : [] });
  const load = loadMcpServerEntries({
    cwd,
    settings,
    mcpConfigArgs: values["mcp-config"] ?? [],
    strict: values["strict-mcp-config"] === true,
  });
  const entry = load.servers.find((server) => server.name === name);
  if (!entry) throw new UsageError(`no MCP server named "${name}" is configured here`);
  if (!entry.config) throw new Error(`MCP server "${name}" cannot be used: ${entry.problem ?? "it is disabled"}`);
  if (entry.config.type === "stdio")
    throw new UsageError(`MCP server "${name}" runs over stdio: there is nothing to sign in to`);
  const manager = new McpClientManager([entry], { cwd });
  try {
    const connection = manager.connection(name);
    if (!connection) throw new Error(`MCP server "${name}" could not be set up`);
    const started = await connection.startAuthentication();
    if (started !== "already") {
      out(`Open this URL in your browser to sign in to ${name}:\n${started.authorizationUrl}\n`);
      out("Waiting for the browser to come back (up to 5 minutes)...\n");
      await started.done;
    }
    const status = connection.status();
    if (status.state !== "connected") {
      err(`warden mcp: signed in, but ${name} did not connect: ${status.error ?? status.state}\n`);
      return 1;
    }
    out(`Signed in to ${name}: connected, ${status.toolCount} tool${status.toolCount === 1 ? "" : "s"}.\n`);
    return 0;
  } finally {
    await manager.close();
  }
}

async function logout(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  const name = positionals[0];
  if (!name || positionals.length > 1) throw new UsageError("logout takes one server name: warden mcp logout NAME");
  const { removeServerAuth } = await import("../../mcp/auth/store.js");
  if (removeServerAuth(name)) out(`Signed out of ${name}: its stored tokens were deleted.\n`);
  else out(`No stored credentials for ${name}.\n`);
  return 0;
}

/** The rule and folder lists of `serve`, which take every word up to the next flag, as a session's do. */
const LIST_FLAGS = new Set([
  "--allowedTools",
  "--allowed-tools",
  "--disallowedTools",
  "--disallowed-tools",
  "--add-dir",
]);

/**
 * `--allowedTools Edit Write` as the session flags read it (`warden -p` takes every word up to the
 * next flag) for node:util's parseArgs, which takes one value per flag and called the rest
 * unexpected arguments: each further word gets the flag again.
 */
function spreadListFlags(argv: readonly string[]): string[] {
  const spread: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    spread.push(arg);
    if (!LIST_FLAGS.has(arg) || i + 1 >= argv.length) continue;
    spread.push(argv[++i] as string);
    while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("-")) spread.push(arg, argv[++i] as string);
  }
  return spread;
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: spreadListFlags(argv),
    options: {
      port: { type: "string" },
      "token-file": { type: "string" },
      allowedTools: { type: "string", multiple: true },
      "allowed-tools": { type: "string", multiple: true },
      disallowedTools: { type: "string", multiple: true },
      "disallowed-tools": { type: "string", multiple: true },
      "permission-mode": { type: "string" },
      settings: { type: "string" },
      "add-dir": { type: "string", multiple: true },
      cwd: { type: "string" },
      "trust-project": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    out(USAGE);
    return 0;
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be 0-65535, not ${values.port}`);
  }
  if (values["token-file"] !== undefined && port === undefined) {
    throw new UsageError("--token-file goes with --port: a stdio server has no token");
  }
  const cwd = resolve(values.cwd ?? ".");
  const [
    { loadSessionPermissions },
    { createCanUseTool, createHeadlessAskHandler },
    { splitRuleList },
    { projectTools },
    { assembleToolPool },
  ] = await Promise.all([
    import("../../permissions/settings/index.js"),
    import("../../permissions/engine/index.js"),
    import("../../permissions/rules/index.js"),
    import("../../tools/registry.js"),
    import("../../tool/pool.js"),
  ]);
  // `Read,Glob "Bash(git diff:*)"` → rules, keeping commas and spaces inside parentheses. Loaded
  // here, not at the top: `warden mcp list` needs none of the rule code.
  const splitRules = (values: readonly string[]) => values.flatMap((value) => splitRuleList(value));
  const permissions = loadSessionPermissions({
    cwd,
    cli: {
      allowedTools: splitRules([...(values.allowedTools ?? []), ...(values["allowed-tools"] ?? [])]),
      disallowedTools: splitRules([...(values.disallowedTools ?? []), ...(values["disallowed-tools"] ?? [])]),
      permissionMode: values["permission-mode"],
      addDirs: (values["add-dir"] ?? []).map((d) => resolve(d)),
    },
    extraSettings: values.settings ? [values.settings] : [],
    trustProject: values["trust-project"] === true,
  });
  for (const warning of permissions.warnings) err(`warden mcp: warning: ${warning}\n`);
  if (permissions.trustNotice) err(`warden mcp: ${permissions.trustNotice}\n`);
  const permissionContext = permissions.permissionContext;
  const tools = assembleToolPool(projectTools(), [], permissionContext.rules);
  const sessionId = randomUUID();
  const { createWardenMcpServer } = await import("../../mcp/server/warden-server.js");
  const makeServer = () =>
    createWardenMcpServer({
      tools,
      canUseTool: createCanUseTool({
        askHandler: createHeadlessAskHandler({
          settingsFolder: permissions.settings.workspaceTrust.folder,
          withheldFiles: permissions.settings.withheldFiles,
        }),
        onWarning: (m) => err(`warden mcp: warning: ${m}\n`),
      }),
      appState: { ...permissions.appState, toolPermissionContext: permissionContext },
      cwd,
      sessionId,
      sessionDir: sessionArtifactsDir(cwd, sessionId),
      version: wardenVersion(),
    });

  if (port === undefined) {
    const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
    const server = await makeServer();
    await server.connect(new StdioServerTransport());
    // stdout is the protocol channel from here on: everything else goes to stderr.
    await new Promise<void>((done) => {
      process.stdin.once("end", done);
      process.stdin.once("close", done);
    });
    await server.close();
    return 0;
  }

  const { serveStreamableHttp } = await import("../../mcp/server/http.js");
  const { newServerToken, writeTokenFile } = await import("../../mcp/server/http-token.js");
  // A new token per server: any local process can reach 127.0.0.1, only the one given this may call.
  const token = newServerToken();
  const tokenFile = values["token-file"];
  if (tokenFile !== undefined) writeTokenFile(resolve(tokenFile), token);
  // Listening for the stop before anyone can know the server is up (see untilStopSignal).
  const stopped = untilStopSignal();
  const running = await serveStreamableHttp(port, makeServer, token);
  const { servableTools } = await import("../../mcp/server/warden-server.js");
  // What clients see: the pool less the tools that cannot be served (ToolSearch, ones that need a person here).
  err(`warden mcp: serving ${servableTools(tools).length} tools at ${running.url}\n`);
  err(`warden mcp: token ${token} (send it as 'Authorization: Bearer <token>')\n`);
  const release = await stopped;
  await running.close();
  release();
  return 0;
}
