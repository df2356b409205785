// What /plugin does once the person has chosen (./plugin-command.ts reads the choice): install,
// uninstall, turn on or off, add a marketplace. Each returns the sentence saying what changed, or
// throws with why nothing did. The session's commands, agents, skills, hooks and MCP servers are
// fixed when it starts, so a change applies when the session is reloaded (./plugin-reload.ts).
import type { PluginScope } from "../../config/plugins/registry.js";

export const SCOPE_CHOICES: ReadonlyArray<{ label: string; value: PluginScope }> = [
  { label: "Install for you, in every folder (user: ~/.warden/settings.json)", value: "user" },
  { label: "Install for everyone on this project (project: .claude/settings.json, shared)", value: "project" },
  { label: "Install for you, in this folder only (local: .claude/settings.local.json)", value: "local" },
];

export async function installFromUi(id: string, scope: PluginScope, cwd: string): Promise<string> {
  const [{ installPlugin }, { loadSettings }] = await Promise.all([
    import("../../config/plugins/install.js"),
    import("../../config/settings.js"),
  ]);
  const done = await installPlugin(id, { scope, cwd, settings: loadSettings({ cwd }) });
  const warned = done.warnings.map((warning) => `\nWarning: ${warning}; it will be skipped.`).join("");
  return `Installed ${id} ${done.install.version} and turned it on in ${done.settingsFile}.${warned}`;
}

export async function uninstallFromUi(id: string, scope: PluginScope, cwd: string): Promise<string> {
  const { uninstallPlugin } = await import("../../config/plugins/install.js");
  const done = uninstallPlugin(id, { scope, cwd });
  return `Uninstalled ${id} (${scope}); removed it from ${done.settingsFile}.`;
}

export async function switchFromUi(id: string, on: boolean, scope: PluginScope, cwd: string): Promise<string> {
  const { parsePluginId, writeEnabledPlugin } = await import("../../config/plugins/install.js");
  parsePluginId(id);
  const file = writeEnabledPlugin(scope, cwd, id, on);
  return `${on ? "Turned on" : "Turned off"} ${id} in ${file}.`;
}

export async function addMarketplaceFromUi(source: string, cwd: string): Promise<string> {
  const { addMarketplace, describeSource } = await import("../../config/plugins/marketplaces.js");
  const added = await addMarketplace(source, cwd);
  return `Added marketplace ${added.name} (${added.manifest.plugins.length} plugin(s)) from ${describeSource(added.entry.source)}; browse it with /plugin.`;
}

export function parseScope(word: string | undefined): PluginScope {
  const scope = word ?? "user";
  if (scope !== "user" && scope !== "project" && scope !== "local") {
    throw new Error(`scope must be user, project or local, not ${JSON.stringify(word)}`);
  }
  return scope;
}
