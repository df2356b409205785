// The session's agents, loaded at start-up only when there is something custom to load (agent
// files or settings `agents`): a file that cannot be used is reported on stderr with its path and
// why, and the others load. With none, the built-in agents are used and nothing is parsed.
import { anyAgentFiles } from "../../config/agent-dirs.js";
import { pluginComponentPaths } from "../../config/plugins/components.js";
import type { LoadedSettings } from "../../config/settings.js";
import { isWorkspaceTrusted } from "../../config/trust/index.js";
import type { AgentCatalog } from "../../tool/agents.js";
import { loadAgentCatalog } from "../../tools/agent/catalog.js";

export async function loadSessionAgentCatalog(
  cwd: string,
  settings: LoadedSettings,
  warn: (message: string) => void,
  /** `--agents` JSON (or the Agent SDK's `agents`): over the settings' agents of the same names. */
  cliAgents?: Record<string, unknown>,
): Promise<AgentCatalog | undefined> {
  let settingsAgents: { value: unknown; where: string } | undefined;
  for (const file of settings.files) {
    if (file.settings.agents !== undefined) settingsAgents = { value: file.settings.agents, where: file.path };
  }
  if (cliAgents !== undefined) {
    const merged = { ...((settingsAgents?.value as Record<string, unknown> | undefined) ?? {}), ...cliAgents };
    settingsAgents = { value: merged, where: "--agents" };
  }
  const pluginWarnings: string[] = [];
  const pluginDirs = (settings.plugins?.plugins ?? []).flatMap((plugin) =>
    pluginComponentPaths(plugin, "agents", pluginWarnings).map((dir) => ({
      dir,
      source: "plugin" as const,
      plugin: plugin.name,
    })),
  );
  for (const warning of pluginWarnings) warn(warning);
  if (!settingsAgents && !anyAgentFiles(cwd, pluginDirs)) return undefined;
  const catalog = await loadAgentCatalog({
    cwd,
    projectTrusted: isWorkspaceTrusted(settings.workspaceTrust),
    settingsAgents,
    pluginDirs,
  });
  for (const issue of catalog.issues) warn(`agent ${issue.path} was not loaded: ${issue.reason}`);
  const untrusted = catalog.untrustedProjectAgents ?? [];
  if (untrusted.length > 0) {
    warn(
      `${untrusted.length} project agent file(s) were not loaded because this folder is not trusted (warden trust): ${untrusted.join(", ")}`,
    );
  }
  return catalog;
}
