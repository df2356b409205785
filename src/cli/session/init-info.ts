// The init line of a stream-json session (system/init), the same for `-p` and the Agent SDK's
// stream-json input: what the session has (tools, MCP servers, agents, skills) and how it runs,
// and the shape of that line (the reporter in ../headless/output.ts prints it).

import type { LoadedSettings } from "../../config/settings.js";
import { howToTrust, type WorkspaceTrust, type WorkspaceTrustStatus } from "../../config/trust/index.js";
import { builtInCatalog } from "../../tools/agent/catalog.js";
import type { BuiltSession } from "./start.js";

export interface InitInfo {
  cwd: string;
  sessionId: string;
  model: string;
  tools: string[];
  permissionMode: string;
  mcpServers: Array<{ name: string; status: string }>;
  workspaceTrust: WorkspaceTrustLine;
  /** The agent types the Agent tool can start. */
  agents: string[];
  /** Agent files (or settings agents) that could not be loaded: path and reason. */
  agentErrors: Array<{ path: string; reason: string }>;
  /** The model id without our provider prefix, as the Agent SDK's init shows it. */
  bareModel: string;
  /** Where the API key comes from, in Claude Code's words (`ANTHROPIC_API_KEY`, `none`). */
  apiKeySource: string;
  /** Slash commands and skills the session knows (names without the slash). */
  slashCommands: string[];
  skills: string[];
  /** The output style in force ("default" when none). */
  outputStyle: string;
  /** Settings problems said on stderr at start (unknown hook events, ignored fields), file first. */
  warnings: string[];
  /** The plugins the session runs, as the Agent SDK's init line and reload_plugins list them. */
  plugins: PluginLine[];
}

export interface PluginLine {
  name: string;
  /** The plugin's folder. */
  path: string;
  /** `name@marketplace`, or `name@--plugin-dir`. */
  source: string;
  /** plugin.json's version, left out when it declares none (as Claude Code does). */
  version?: string;
}

/** The plugins the settings in force turned on and that loaded (`--plugin-dir` folders too). */
export function pluginLines(settings: LoadedSettings): PluginLine[] {
  return (settings.plugins?.plugins ?? []).map((plugin) => ({
    name: plugin.name,
    path: plugin.root,
    source: plugin.id,
    ...(plugin.manifest.version !== undefined && { version: plugin.manifest.version }),
  }));
}

/** `ANTHROPIC_API_KEY` when the session's provider reads it from the environment; else `none`. */
export function apiKeySourceFor(providerName: string, env: NodeJS.ProcessEnv = process.env): string {
  if (providerName === "anthropic" && env.ANTHROPIC_API_KEY) return "ANTHROPIC_API_KEY";
  return "none";
}

/**
 * Whether the folder's own settings are in force, and what was ignored when they are not (the
 * `workspace_trust` field of the init line; Claude Code has no such field, consumers skip it).
 */
export interface WorkspaceTrustLine {
  folder: string;
  status: WorkspaceTrustStatus;
  ignored: Array<{ file: string; key: string; grants: string }>;
  how_to_trust?: string;
}

export function workspaceTrustLine(trust: WorkspaceTrust): WorkspaceTrustLine {
  if (trust.status !== "untrusted") return { folder: trust.folder, status: trust.status, ignored: [] };
  return {
    folder: trust.folder,
    status: trust.status,
    ignored: trust.widening.filter((w) => w.known).map(({ file, key, grants }) => ({ file, key, grants })),
    how_to_trust: howToTrust(trust.folder),
  };
}

export function initInfoOf(
  built: BuiltSession,
  extraServers: ReadonlyArray<{ name: string; status: string }> = [],
): InitInfo {
  const { plan, session, mcp, agentCatalog, skills } = built;
  const current = built.provider.current;
  return {
    cwd: plan.config.cwd,
    sessionId: session.sessionId,
    model: current.label,
    bareModel: current.model,
    apiKeySource: apiKeySourceFor(current.provider.name),
    tools: session.tools.map((t) => t.name),
    permissionMode: session.getAppState().toolPermissionContext.mode,
    mcpServers: [...mcp.servers, ...extraServers],
    workspaceTrust: workspaceTrustLine(plan.permissions.settings.workspaceTrust),
    agents: (agentCatalog ?? builtInCatalog()).agents.map((agent) => agent.agentType),
    agentErrors: agentCatalog?.issues ?? [],
    slashCommands: [
      "compact",
      ...skills.catalog.commands.map((c) => c.name),
      ...skills.catalog.skills.map((s) => s.name),
    ],
    skills: skills.catalog.skills.map((s) => s.name),
    outputStyle: built.outputStyle,
    warnings: plan.permissions.warnings,
    plugins: pluginLines(plan.permissions.settings),
  };
}
