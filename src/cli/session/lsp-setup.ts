// The LSP tool for a session: which language servers may be started here (decided from settings,
// the active plugins and the project's top folder, no LSP code loaded), the tool when there is one, and the close at
// the session's end that stops every server it started.
import { activePluginLspServers } from "../../config/plugins/lsp-servers.js";
import { type LoadedSettings, settingsEnv } from "../../config/settings.js";
import { isWorkspaceTrusted } from "../../config/trust/index.js";
import { chooseLspServers } from "../../lsp/servers.js";
import { LspService } from "../../lsp/service.js";
import type { AnyTool } from "../../tool/types.js";
import { createLspTool } from "../../tools/lsp/tool.js";

export interface SessionLsp {
  tools: AnyTool[];
  service: LspService | undefined;
  close(): Promise<void>;
}

/** `lspServers` from every settings file, the higher-precedence file winning per server name. */
function settingsLspServers(loaded: LoadedSettings): Record<string, unknown> {
  const servers: Record<string, unknown> = {};
  for (const file of loaded.files) Object.assign(servers, file.settings.lspServers ?? {});
  return servers;
}

export function setUpLsp(cwd: string, loaded: LoadedSettings, warn: (message: string) => void): SessionLsp {
  const choice = chooseLspServers({
    cwd,
    settings: settingsLspServers(loaded),
    trusted: isWorkspaceTrusted(loaded.workspaceTrust),
    // Active plugins only: a project's enabledPlugins count once the folder is trusted (as for their MCP servers).
    pluginServers: activePluginLspServers(loaded.plugins?.plugins ?? [], warn),
  });
  for (const warning of choice.warnings) warn(warning);
  if (choice.servers.length === 0) return { tools: [], service: undefined, close: async () => undefined };
  // Settings `env` (of the files in force: a folder's own only once trusted) under each server's own.
  const sessionEnv = settingsEnv(loaded.files);
  const servers = choice.servers.map((server) => ({ ...server, env: { ...sessionEnv, ...server.env } }));
  const service = new LspService(servers, cwd, choice.unavailable);
  return { tools: [createLspTool(service)], service, close: () => service.close() };
}
