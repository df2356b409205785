// Where MCP servers are configured, lowest precedence first; a later source replaces an earlier
// server of the same name. Servers from files checked into the repository (`.mcp.json`, project
// settings) would run commands on this machine just because a repository was cloned, so, as in
// Claude Code, they need the user's approval, given in user or local settings; and, in a folder
// the user has not trusted (src/config/trust/), .mcp.json and the folder's approvals count not at all.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseConfigJson } from "../config/json-text.js";
import { userHome } from "../config/paths.js";
import { pluginMcpServers } from "../config/plugins/components.js";
import {
  isProjectServerApproved,
  type ProjectServerApprovals,
  projectServerApprovals,
} from "../config/project-server-approvals.js";
import type { LoadedSettings, SettingsSourceName } from "../config/settings.js";
import { howToTrust } from "../config/trust/index.js";
import { type McpConfigScope, type McpServerEntry, parseServerConfig, serversObjectOf } from "./config.js";

export interface McpConfigSourcesOptions {
  cwd: string;
  /** `--mcp-config` values: file paths or inline JSON, in order. */
  mcpConfigArgs?: string[];
  /** The session's settings (their `mcpServers`, approvals and toolSearch). */
  settings?: LoadedSettings;
  /**
   * List an untrusted folder's .mcp.json servers (never started) with the reason, as `warden mcp
   * list` does; a session leaves them out, its trust notice names them.
   */
  listUntrusted?: boolean;
  /** `--strict-mcp-config`: only the `--mcp-config` servers count. */
  strict?: boolean;
  env?: NodeJS.ProcessEnv;
  /**
   * Project servers the user approved during the session (/mcp), written to their local settings
   * since the session read them: counted as approved (never in a folder that is not trusted).
   */
  approvedNow?: readonly string[];
}

export interface McpConfigLoad {
  /** One entry per server name, in a stable order (by name). */
  servers: McpServerEntry[];
  /** Problems with whole files (unreadable, invalid JSON). */
  fileProblems: string[];
}

const SCOPE_OF_SETTINGS: Record<SettingsSourceName, McpConfigScope> = {
  userSettings: "user",
  projectSettings: "project",
  localSettings: "local",
  cliArg: "cli",
  policySettings: "policy",
};

interface RawServers {
  scope: McpConfigScope;
  origin: string;
  servers: Record<string, unknown>;
}

function readJsonFile(path: string, problems: string[], mustExist: boolean): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !mustExist) return undefined;
    problems.push(`${path}: ${code === "ENOENT" ? "file not found" : `cannot be read (${code ?? String(error)})`}`);
    return undefined;
  }
  try {
    return parseConfigJson(text);
  } catch (error) {
    problems.push(`${path}: invalid JSON (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

function serversFrom(json: unknown, origin: string, problems: string[]): Record<string, unknown> {
  if (json === undefined) return {};
  const servers = serversObjectOf(json);
  if (!servers) {
    problems.push(`${origin}: expected an object with an "mcpServers" object`);
    return {};
  }
  return servers;
}

/** `~/.claude.json`: Claude Code keeps user-scoped servers at its top and local ones per project. */
function claudeUserFile(cwd: string, problems: string[]): RawServers[] {
  const path = join(userHome(), ".claude.json");
  const json = readJsonFile(path, problems, false) as
    | { mcpServers?: unknown; projects?: Record<string, { mcpServers?: unknown }> }
    | undefined;
  if (!json || typeof json !== "object") return [];
  const found: RawServers[] = [];
  if (json.mcpServers !== undefined)
    found.push({ scope: "user", origin: path, servers: serversFrom(json, path, problems) });
  const project = json.projects?.[cwd];
  if (project?.mcpServers !== undefined) {
    found.push({ scope: "local", origin: `${path} (project ${cwd})`, servers: serversFrom(project, path, problems) });
  }
  return found;
}

function cliConfig(value: string, cwd: string, problems: string[]): RawServers {
  const inline = value.trimStart().startsWith("{");
  const origin = inline ? "--mcp-config" : resolve(cwd, value);
  let json: unknown;
  if (inline) {
    try {
      json = JSON.parse(value);
    } catch (error) {
      problems.push(`--mcp-config: invalid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  } else {
    json = readJsonFile(origin, problems, true);
  }
  return { scope: "cli", origin, servers: serversFrom(json, origin, problems) };
}

function approvalProblem(name: string, approvals: ProjectServerApprovals): string | undefined {
  if (approvals.disabled.has(name)) return "disabled by disabledMcpjsonServers in settings";
  if (isProjectServerApproved(name, approvals)) return undefined;
  // The command first: the trust question and `warden trust` name it, so this says the same step.
  return `project server not approved: run \`warden mcp approve ${name}\` (or pick it in /mcp), which adds "enabledMcpjsonServers": ["${name}"] to .warden/settings.local.json`;
}

/**
 * What is wrong with `--mcp-config` values: a file that cannot be read, JSON that does not parse,
 * no `mcpServers` object, a server entry that is not valid. The command line is the user's own
 * input, so the session stops on these (exit 2, as for a bad --settings) rather than going on
 * without the servers. `${VAR}` references are not checked here: a missing variable is the
 * server's problem, reported when it would start.
 */
export function mcpConfigArgProblems(values: readonly string[], cwd: string): string[] {
  const problems: string[] = [];
  for (const value of values) {
    const before = problems.length;
    const source = cliConfig(value, resolve(cwd), problems);
    if (problems.length > before) continue;
    for (const [name, raw] of Object.entries(source.servers)) {
      const entry = parseServerConfig(name, raw, "cli", source.origin, {});
      if (entry.problem && !entry.problem.startsWith("missing environment variable")) {
        problems.push(`${source.origin}: server "${name}": ${entry.problem}`);
      }
    }
  }
  return problems;
}

/** Gathers every configured server, validated and expanded, one entry per name. */
export function loadMcpServerEntries(options: McpConfigSourcesOptions): McpConfigLoad {
  const cwd = resolve(options.cwd);
  const env = options.env ?? process.env;
  const fileProblems: string[] = [];
  const sources: RawServers[] = [];

  if (!options.strict) {
    const settingsFiles = options.settings?.files ?? [];
    const fromSettings = (source: SettingsSourceName) =>
      settingsFiles
        .filter((f) => f.source === source && f.settings.mcpServers !== undefined)
        .map((f) => ({ scope: SCOPE_OF_SETTINGS[source], origin: f.path, servers: f.settings.mcpServers ?? {} }));
    const claude = claudeUserFile(cwd, fileProblems);
    const mcpJsonPath = join(cwd, ".mcp.json");
    sources.push(...claude.filter((s) => s.scope === "user"), ...fromSettings("userSettings"));
    // Active plugins' servers (turned on by the user, or by a project the user trusted).
    for (const plugin of options.settings?.plugins?.plugins ?? []) {
      sources.push({ scope: "user", origin: `plugin ${plugin.id}`, servers: pluginMcpServers(plugin, fileProblems) });
    }
    // An untrusted folder's .mcp.json starts nothing; the session's trust notice names its servers.
    const untrusted = options.settings?.workspaceTrust.status === "untrusted";
    if (!untrusted || options.listUntrusted) {
      sources.push({
        scope: "mcpjson",
        origin: mcpJsonPath,
        servers: serversFrom(readJsonFile(mcpJsonPath, fileProblems, false), mcpJsonPath, fileProblems),
      });
    }
    sources.push(...fromSettings("projectSettings"));
    sources.push(...claude.filter((s) => s.scope === "local"), ...fromSettings("localSettings"));
  }
  for (const value of options.mcpConfigArgs ?? []) sources.push(cliConfig(value, cwd, fileProblems));
  if (!options.strict) {
    const settingsFiles = options.settings?.files ?? [];
    for (const f of settingsFiles.filter((file) => file.source === "policySettings" && file.settings.mcpServers)) {
      sources.push({ scope: "policy", origin: f.path, servers: f.settings.mcpServers ?? {} });
    }
  }

  const approvals = projectServerApprovals(options.settings?.files ?? []);
  for (const name of options.approvedNow ?? []) {
    approvals.enabled.add(name);
    approvals.disabled.delete(name);
  }
  const trust = options.settings?.workspaceTrust;
  const byName = new Map<string, McpServerEntry>();
  for (const source of sources) {
    for (const [name, raw] of Object.entries(source.servers)) {
      const entry = parseServerConfig(name, raw, source.scope, source.origin, env);
      const needsApproval = source.scope === "mcpjson" || source.scope === "project";
      const unapproved = !needsApproval
        ? undefined
        : trust?.status === "untrusted"
          ? `not started: ${trust.folder} is not trusted; ${howToTrust(trust.folder)}`
          : approvalProblem(name, approvals);
      const { config: _withheld, ...described } = entry;
      byName.set(name, unapproved && !entry.problem ? { ...described, problem: unapproved } : entry);
    }
  }
  const servers = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { servers, fileProblems };
}

/**
 * The servers the user turned off for this project: `disabledMcpServers` of the folder's local
 * settings, where /mcp and mcp_toggle write it (kept in an untrusted folder too: it only restricts).
 */
export function serversDisabledForProject(settings: LoadedSettings | undefined): Set<string> {
  const names = new Set<string>();
  for (const file of settings?.files ?? []) {
    if (file.source === "localSettings") for (const name of file.settings.disabledMcpServers ?? []) names.add(name);
  }
  return names;
}
