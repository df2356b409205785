// The agents a session can spawn: the built-in ones, then custom ones (user files, project files
// when the folder is trusted, settings), a later source overriding an earlier custom agent of the
// same name. A built-in name cannot be taken over: `Explore` always means the read-only explorer.
import { type AgentDirectory, anyAgentFiles } from "../../config/agent-dirs.js";
import type { AgentCatalog, AgentDefinition } from "../../tool/agents.js";
import type { ToolUseContext } from "../../tool/types.js";
import { BUILT_IN_AGENTS } from "./built-in.js";

export interface LoadAgentCatalogOptions {
  cwd: string;
  /** The folder's widening settings are in force (src/config/trust/); else project agents wait. */
  projectTrusted: boolean;
  /** The `agents` value of the merged settings, with where it came from for messages. */
  settingsAgents?: { value: unknown; where: string };
  /** Active plugins' agent folders: their agents are named `plugin:agent`. */
  pluginDirs?: readonly AgentDirectory[];
}

/** Built-in agents plus custom ones; the parser (and YAML) loads only when there is something to parse. */
export async function loadAgentCatalog(options: LoadAgentCatalogOptions): Promise<AgentCatalog> {
  const anyFiles = anyAgentFiles(options.cwd, options.pluginDirs);
  if (!options.settingsAgents && !anyFiles) return builtInCatalog();
  const { agentsFromSettings, loadAgentFiles } = await import("../../config/agent-files.js");
  const files = anyFiles
    ? loadAgentFiles({ cwd: options.cwd, projectTrusted: options.projectTrusted, pluginDirs: options.pluginDirs })
    : { definitions: [], issues: [], untrustedProjectFiles: [] };
  const fromSettings = options.settingsAgents
    ? agentsFromSettings(options.settingsAgents.value, options.settingsAgents.where)
    : { definitions: [], issues: [] };
  const issues = [...files.issues, ...fromSettings.issues];
  const byName = new Map<string, AgentDefinition>();
  for (const agent of BUILT_IN_AGENTS) byName.set(agent.agentType, agent);
  for (const agent of [...files.definitions, ...fromSettings.definitions]) {
    const existing = byName.get(agent.agentType);
    if (existing?.source === "built-in") {
      issues.push({
        path: agent.path ?? "settings",
        reason: `the name "${agent.agentType}" belongs to a built-in agent; choose another name`,
      });
      continue;
    }
    byName.set(agent.agentType, agent);
  }
  const catalog: AgentCatalog = { agents: [...byName.values()], issues };
  if (files.untrustedProjectFiles.length > 0) catalog.untrustedProjectAgents = files.untrustedProjectFiles;
  return catalog;
}

/** The built-in agents alone: what a session gets when nobody loaded a catalog for it. */
export function builtInCatalog(): AgentCatalog {
  return { agents: [...BUILT_IN_AGENTS], issues: [] };
}

/**
 * The session's catalog, as the CLI loaded it at start-up, else the built-in agents (a library
 * session without a loaded catalog runs no repository's agents: fail closed).
 */
export function sessionAgentCatalog(context: Pick<ToolUseContext, "getAppState" | "setAppState">): AgentCatalog {
  const existing = context.getAppState().agentCatalog;
  if (existing) return existing;
  const catalog = builtInCatalog();
  context.setAppState((state) => (state.agentCatalog ? state : { ...state, agentCatalog: catalog }));
  return catalog;
}

/** By exact name, then any case, then a plugin agent's short name when only one plugin has it. */
export function findAgent(catalog: AgentCatalog, agentType: string): AgentDefinition | undefined {
  const found =
    catalog.agents.find((agent) => agent.agentType === agentType) ??
    catalog.agents.find((agent) => agent.agentType.toLowerCase() === agentType.toLowerCase());
  if (found || agentType.includes(":")) return found;
  const short = catalog.agents.filter(
    (agent) => agent.source === "plugin" && agent.agentType.slice(agent.agentType.indexOf(":") + 1) === agentType,
  );
  return short.length === 1 ? short[0] : undefined;
}
