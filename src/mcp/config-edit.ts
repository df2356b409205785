// `warden mcp add | remove | approve` write MCP server entries where Claude Code's `claude mcp`
// scopes put them, in Warden's files: local (this project, only for you) in
// .warden/settings.local.json, project (shared with the repository) in .mcp.json, user (all your
// projects) in ~/.warden/settings.json. Each file is read, changed and replaced atomically under a
// lock, keeping everything else it holds; a file that is not valid JSON is left alone. A change the
// user makes to the folder's own files with these commands keeps a trusted folder trusted. The
// approvals of project servers and the servers turned off for this project (/mcp, the SDK's
// mcp_toggle) go to the local file too.
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { keepLocalSettingsOutOfGit } from "../config/local-settings-git.js";
import { userSettingsPath } from "../config/paths.js";
import { localSettingsPath } from "../config/settings.js";
import { readSettingsObjectForUpdate } from "../config/settings-object.js";
import { keepTrustAcrossOwnWrite } from "../config/workspace-trust.js";
import { writeFileAtomicSync } from "../fs/atomic-write.js";
import { withFileLockSync } from "../fs/file-lock.js";
import { parseServerConfig } from "./config.js";

export const MCP_EDIT_SCOPES = ["local", "project", "user"] as const;
export type McpEditScope = (typeof MCP_EDIT_SCOPES)[number];

/** The file a scope's servers are written to. */
export function scopeFile(scope: McpEditScope, cwd: string): string {
  if (scope === "project") return join(resolve(cwd), ".mcp.json");
  if (scope === "local") return localSettingsPath(cwd);
  return userSettingsPath();
}

export class McpEditError extends Error {}

/**
 * Reads one file, lets `change` edit its object, writes it back; `change` may throw McpEditError,
 * or return false when there is nothing to change (then nothing is written).
 */
function editFile(
  path: string,
  scope: McpEditScope,
  cwd: string,
  change: (json: Record<string, unknown>) => boolean | undefined,
) {
  const write = () =>
    withFileLockSync(`${path}.lock`, () => {
      const json = readSettingsObjectForUpdate(path);
      if (change(json) === false) return;
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(json, null, 2)}\n`, "utf8"));
    });
  if (scope === "user") write();
  else keepTrustAcrossOwnWrite(resolve(cwd), write);
  if (scope === "local") keepLocalSettingsOutOfGit(path);
}

function serversOf(json: Record<string, unknown>, path: string, create: boolean): Record<string, unknown> | undefined {
  const servers = json.mcpServers;
  if (servers === undefined) {
    if (!create) return undefined;
    const made: Record<string, unknown> = {};
    json.mcpServers = made;
    return made;
  }
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw new McpEditError(`${path}: mcpServers is not an object; not changing it`);
  }
  return servers as Record<string, unknown>;
}

/**
 * Adds a server to a scope's file. The entry is checked as a session would read it (name, shape,
 * URL) first; a server of the same name in that scope is an error, never overwritten.
 */
export function addMcpServer(scope: McpEditScope, cwd: string, name: string, config: Record<string, unknown>): string {
  // `${VAR}` stays as written (it is expanded when the server starts); only the shape is checked here.
  const checked = parseServerConfig(name, config, scope === "project" ? "mcpjson" : scope, "add", {});
  if (checked.problem && !checked.problem.startsWith("missing environment variable")) {
    throw new McpEditError(`server "${name}": ${checked.problem}`);
  }
  const path = scopeFile(scope, cwd);
  editFile(path, scope, cwd, (json) => {
    const servers = serversOf(json, path, true) as Record<string, unknown>;
    if (Object.hasOwn(servers, name)) {
      throw new McpEditError(`an MCP server named "${name}" already exists in ${scope} config (${path})`);
    }
    servers[name] = config;
  });
  return path;
}

/** The scopes whose file holds a server of this name. */
export function scopesHolding(cwd: string, name: string): McpEditScope[] {
  return MCP_EDIT_SCOPES.filter((scope) => {
    const path = scopeFile(scope, cwd);
    try {
      const servers = serversOf(readSettingsObjectForUpdate(path), path, false);
      return servers !== undefined && Object.hasOwn(servers, name);
    } catch {
      return false;
    }
  });
}

/** Removes a server from the given scope, or from the one scope that holds it. */
export function removeMcpServer(
  cwd: string,
  name: string,
  scope?: McpEditScope,
): { scope: McpEditScope; path: string } {
  const holding = scopesHolding(cwd, name);
  if (scope === undefined) {
    if (holding.length === 0) throw new McpEditError(`no MCP server named "${name}" in local, project or user config`);
    if (holding.length > 1) {
      throw new McpEditError(
        `"${name}" is in more than one scope (${holding.join(", ")}); say which with --scope ${holding.join("|")}`,
      );
    }
    scope = holding[0] as McpEditScope;
  } else if (!holding.includes(scope)) {
    throw new McpEditError(`no MCP server named "${name}" in ${scope} config (${scopeFile(scope, cwd)})`);
  }
  const path = scopeFile(scope, cwd);
  editFile(path, scope, cwd, (json) => {
    const servers = serversOf(json, path, false);
    if (servers) delete servers[name];
  });
  return { scope, path };
}

/** A list of names in a settings object, or an error naming the file when it is something else. */
function nameList(json: Record<string, unknown>, key: string, path: string): string[] {
  const value = json[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new McpEditError(`${path}: ${key} is not a list of names; not changing it`);
  }
  return value as string[];
}

/**
 * Approves a project server (one from .mcp.json or the project's settings) for you in this folder:
 * its name joins `enabledMcpjsonServers` in .warden/settings.local.json and leaves
 * `disabledMcpjsonServers` there. Returns the file written.
 */
export function approveProjectMcpServer(cwd: string, name: string): string {
  const path = localSettingsPath(cwd);
  editFile(path, "local", cwd, (json) => {
    const enabled = nameList(json, "enabledMcpjsonServers", path);
    if (!enabled.includes(name)) json.enabledMcpjsonServers = [...enabled, name];
    const disabled = nameList(json, "disabledMcpjsonServers", path);
    if (disabled.includes(name)) json.disabledMcpjsonServers = disabled.filter((n) => n !== name);
  });
  return path;
}

/**
 * Turns a server off (or on again) for you in this folder, as Claude Code's per-project
 * `disabledMcpServers` does: the name joins (or leaves) that list in .warden/settings.local.json,
 * and later sessions here do not start it. The list is removed once empty. Returns the file
 * written; a file that is not valid JSON, or a list that is not one of names, is an error and
 * nothing is written.
 */
export function setMcpServerDisabledForProject(cwd: string, name: string, disabled: boolean): string {
  const path = localSettingsPath(cwd);
  editFile(path, "local", cwd, (json) => {
    const names = nameList(json, "disabledMcpServers", path);
    if (names.includes(name) === disabled) return false;
    const left = names.filter((n) => n !== name);
    if (disabled) json.disabledMcpServers = [...names, name];
    else if (left.length > 0) json.disabledMcpServers = left;
    else delete json.disabledMcpServers;
    return true;
  });
  return path;
}
