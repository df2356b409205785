// The installed plugins and whether this folder's settings turn each on: what `warden plugin list`
// and /plugin show.
import { loadSettings } from "../settings.js";
import { enabledPluginIds } from "./active.js";
import { claudePluginsHome, installedPluginsPath } from "./paths.js";
import { readInstalledPlugins } from "./registry.js";

export interface PluginListing {
  /** One line per install (`on  id  version  scope`), then notes. */
  lines: string[];
  /** Registry files that could not be read. */
  problems: string[];
}

export function pluginListing(cwd: string): PluginListing {
  const settings = loadSettings({ cwd });
  const on = new Set(enabledPluginIds(settings.files));
  const lines: string[] = [];
  const problems: string[] = [];
  const listed = new Set<string>();
  const registries = [
    [installedPluginsPath(), ""],
    [installedPluginsPath(claudePluginsHome()), " (installed by Claude Code)"],
  ] as const;
  for (const [path, who] of registries) {
    let installed: ReturnType<typeof readInstalledPlugins>;
    try {
      installed = readInstalledPlugins(path);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    for (const [id, installs] of Object.entries(installed.plugins)) {
      if (listed.has(id)) continue;
      listed.add(id);
      for (const install of installs) {
        lines.push(`${on.has(id) ? "on " : "off"}  ${id}  ${install.version}  ${install.scope}${who}`);
      }
    }
  }
  for (const id of on) if (!listed.has(id)) lines.push(`on   ${id}  (not installed: warden plugin install ${id})`);
  const trust = settings.workspaceTrust;
  if (trust.status === "untrusted" && trust.widening.some((w) => w.key === "enabledPlugins")) {
    lines.push("This folder's own enabledPlugins wait until you trust it (warden trust).");
  }
  if (lines.length === 0) lines.push("No plugins installed.");
  return { lines, problems };
}
