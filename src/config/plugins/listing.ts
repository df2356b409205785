// The installed plugins and whether this folder's settings turn each on, and the plugins each
// known marketplace offers: what `warden plugin list` prints and what /plugin lets the person pick.
import { loadSettings } from "../settings.js";
import { enabledPluginIds } from "./active.js";
import { describeSource, readMarketplace } from "./marketplaces.js";
import { claudePluginsHome, installedPluginsPath } from "./paths.js";
import { type PluginScope, readInstalledPlugins, readKnownMarketplaces } from "./registry.js";

export interface InstalledPluginView {
  id: string;
  version: string;
  scope: PluginScope;
  /** Turned on by the settings in force here. */
  on: boolean;
  /** Found in Claude Code's registry (read only: Warden does not uninstall it). */
  byClaudeCode: boolean;
}

export interface PluginListing {
  /** One line per install (`on  id  version  scope`), then notes. */
  lines: string[];
  installs: InstalledPluginView[];
  /** Turned on here but installed nowhere. */
  missing: string[];
  /** Registry files that could not be read. */
  problems: string[];
}

export function pluginListing(cwd: string): PluginListing {
  const settings = loadSettings({ cwd });
  const on = new Set(enabledPluginIds(settings.files));
  const lines: string[] = [];
  const installs: InstalledPluginView[] = [];
  const problems: string[] = [];
  const listed = new Set<string>();
  const registries = [
    [installedPluginsPath(), false],
    [installedPluginsPath(claudePluginsHome()), true],
  ] as const;
  for (const [path, byClaudeCode] of registries) {
    let installed: ReturnType<typeof readInstalledPlugins>;
    try {
      installed = readInstalledPlugins(path);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    for (const [id, found] of Object.entries(installed.plugins)) {
      if (listed.has(id)) continue;
      listed.add(id);
      for (const install of found) {
        installs.push({ id, version: install.version, scope: install.scope, on: on.has(id), byClaudeCode });
        const who = byClaudeCode ? " (installed by Claude Code)" : "";
        lines.push(`${on.has(id) ? "on " : "off"}  ${id}  ${install.version}  ${install.scope}${who}`);
      }
    }
  }
  const missing = [...on].filter((id) => !listed.has(id));
  for (const id of missing) lines.push(`on   ${id}  (not installed: warden plugin install ${id})`);
  const trust = settings.workspaceTrust;
  if (trust.status === "untrusted" && trust.widening.some((w) => w.key === "enabledPlugins")) {
    lines.push("This folder's own enabledPlugins wait until you trust it (warden trust).");
  }
  if (lines.length === 0) lines.push("No plugins installed.");
  return { lines, installs, missing, problems };
}

export interface MarketplaceView {
  name: string;
  /** Where it comes from, as the person would type it. */
  source: string;
  plugins: Array<{ name: string; id: string; description?: string; version?: string }>;
  /** Why its plugins cannot be listed (an unreadable manifest, a clone that is gone). */
  problem?: string;
}

/** The marketplaces added with `warden plugin marketplace add`, each with the plugins it offers. */
export function marketplaceViews(): MarketplaceView[] {
  let known: ReturnType<typeof readKnownMarketplaces>;
  try {
    known = readKnownMarketplaces();
  } catch (error) {
    return [{ name: "(registry)", source: "", plugins: [], problem: (error as Error).message }];
  }
  return Object.entries(known).map(([name, entry]) => {
    const source = describeSource(entry.source);
    try {
      const plugins = readMarketplace(entry).plugins.map((p) => ({
        name: p.name,
        id: `${p.name}@${name}`,
        ...(p.description !== undefined && { description: p.description }),
        ...(p.version !== undefined && { version: p.version }),
      }));
      return { name, source, plugins };
    } catch (error) {
      return { name, source, plugins: [], problem: (error as Error).message };
    }
  });
}
