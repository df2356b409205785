// Where plugins live on disk. Warden keeps its own copy under ~/.warden/plugins (WARDEN_HOME), laid
// out as Claude Code lays out ~/.claude/plugins: known_marketplaces.json, installed_plugins.json,
// marketplaces/<name>/ (cloned marketplaces) and cache/<marketplace>/<plugin>/<version>/ (installed
// plugins). Its own folder, because Claude Code rewrites its files at every start and would race
// our writes (its changelog records exactly that race between its own processes), and because a
// plugin Warden installed must not appear enabled-but-missing in Claude Code. Claude Code's own
// installed plugins are still found (read only) so a plugin enabled in ~/.claude/settings.json works.
import { join } from "node:path";
import { userHome, wardenHome } from "../paths.js";

export function pluginsHome(): string {
  return join(wardenHome(), "plugins");
}

export function knownMarketplacesPath(home = pluginsHome()): string {
  return join(home, "known_marketplaces.json");
}

export function installedPluginsPath(home = pluginsHome()): string {
  return join(home, "installed_plugins.json");
}

export function marketplaceClonePath(name: string): string {
  return join(pluginsHome(), "marketplaces", name);
}

export function pluginCachePath(marketplace: string, plugin: string, version: string): string {
  return join(pluginsHome(), "cache", marketplace, plugin, version);
}

/** Claude Code's plugin folder, read (never written) for plugins installed there. */
export function claudePluginsHome(): string {
  return join(userHome(), ".claude", "plugins");
}
