// Installing, turning on and off, and uninstalling plugins. Installing copies the plugin out of its
// marketplace (or clones its own repository) into Warden's cache, records it in
// installed_plugins.json and turns it on in the settings file of the chosen scope, as Claude Code
// does: user → ~/.warden/settings.json, project → .claude/settings.json (shared with the team, in
// Claude Code's own file), local → .claude/settings.local.json.
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { withFileLockSync } from "../../fs/file-lock.js";
import { keepLocalSettingsOutOfGit } from "../local-settings-git.js";
import { userSettingsPath } from "../paths.js";
import type { LoadedSettings } from "../settings.js";
import { readSettingsObjectForUpdate } from "../settings-object.js";
import { escapingManifestPaths, missingManifestPaths } from "./components.js";
import {
  type MarketplaceEntry,
  PLUGIN_NAME,
  PluginFormatError,
  readMarketplaceManifest,
  readPluginManifest,
} from "./manifest.js";
import { addMarketplaceSource, cloneRepository } from "./marketplaces.js";
import { pluginCachePath, pluginsHome } from "./paths.js";
import {
  type KnownMarketplace,
  type MarketplaceSource,
  type PluginInstall,
  type PluginScope,
  readInstalledPlugins,
  readKnownMarketplaces,
} from "./registry.js";
import { writeInstalledPlugins, writeJsonFile } from "./registry-write.js";

export const PLUGIN_SCOPES: readonly PluginScope[] = ["user", "project", "local"];

/** `name@marketplace`, checked. */
export function parsePluginId(id: string): { name: string; marketplace: string } {
  const at = id.lastIndexOf("@");
  const name = id.slice(0, at);
  const marketplace = id.slice(at + 1);
  if (at <= 0 || !PLUGIN_NAME.test(name) || !PLUGIN_NAME.test(marketplace)) {
    throw new Error(`expected NAME@MARKETPLACE (letters, digits, '.', '_', '-'), not ${JSON.stringify(id)}`);
  }
  return { name, marketplace };
}

/** The settings file a scope writes. */
export function scopeSettingsPath(scope: PluginScope, cwd: string): string {
  if (scope === "user") return userSettingsPath();
  return join(resolve(cwd), ".claude", scope === "project" ? "settings.json" : "settings.local.json");
}

/** Sets (or, with `undefined`, removes) `enabledPlugins[id]` in the scope's settings file. */
export function writeEnabledPlugin(scope: PluginScope, cwd: string, id: string, on: boolean | undefined): string {
  const path = scopeSettingsPath(scope, cwd);
  withFileLockSync(`${path}.lock`, () => {
    const settings = readSettingsObjectForUpdate(path);
    const current = settings.enabledPlugins;
    const plugins: Record<string, unknown> =
      typeof current === "object" && current !== null && !Array.isArray(current) ? { ...current } : {};
    if (on === undefined) delete plugins[id];
    else plugins[id] = on;
    if (Object.keys(plugins).length > 0) settings.enabledPlugins = plugins;
    else delete settings.enabledPlugins;
    writeJsonFile(path, settings);
  });
  if (scope === "local") keepLocalSettingsOutOfGit(path);
  return path;
}

/**
 * A marketplace by name: one added with `warden plugin marketplace add`, else one the settings in
 * force name in `extraKnownMarketplaces` (a folder is used where it is; a repository is added now).
 */
export async function findMarketplace(name: string, settings?: LoadedSettings): Promise<KnownMarketplace> {
  const known = readKnownMarketplaces()[name];
  if (known) return known;
  let extra: Record<string, unknown> | undefined;
  for (const file of settings?.files ?? []) {
    const entry = file.settings.extraKnownMarketplaces?.[name];
    if (entry) extra = entry.source;
  }
  if (!extra) throw new Error(`no marketplace named ${name}; add it with \`warden plugin marketplace add SOURCE\``);
  const source = extra as unknown as MarketplaceSource;
  if (source.source === "directory" && typeof source.path === "string") {
    return { source, installLocation: source.path };
  }
  if (
    (source.source === "git" && typeof source.url === "string") ||
    (source.source === "github" && typeof source.repo === "string")
  ) {
    const added = await addMarketplaceSource(source);
    if (added.name !== name) throw new Error(`extraKnownMarketplaces.${name} holds a marketplace named ${added.name}`);
    return added.entry;
  }
  throw new Error(`extraKnownMarketplaces.${name}: unsupported source ${JSON.stringify(extra)}`);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

/** The plugin's folder, ready to copy: inside the marketplace, or a fresh clone (with its cleanup). */
async function pluginSourceFolder(
  marketplace: KnownMarketplace,
  entry: MarketplaceEntry,
): Promise<{ folder: string; cleanup: () => void; commit?: string }> {
  const source = entry.source;
  if (typeof source === "string") {
    const root = realpathSync(marketplace.installLocation);
    const folder = resolve(root, source);
    // Outside first, on the path as written: a missing folder elsewhere is still a source that leaves.
    if (!inside(root, folder) || (existsSync(folder) && !inside(root, realpathSync(folder)))) {
      throw new Error(`${entry.name}: its source ${source} leaves the marketplace's folder; refusing it`);
    }
    if (!existsSync(folder)) throw new Error(`${entry.name}: its source ${source} (${folder}) does not exist`);
    return { folder, cleanup: () => undefined };
  }
  const url = source.source === "github" ? `https://github.com/${source.repo}.git` : source.url;
  const temp = mkdtempSync(join(pluginsHome(), ".clone-"));
  const folder = join(temp, "plugin");
  try {
    await cloneRepository(url, folder, source.ref);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  const { runGit } = await import("../../fs/git-run.js");
  const commit = (await runGit(folder, ["rev-parse", "HEAD"])).trim();
  return { folder, cleanup: () => rmSync(temp, { recursive: true, force: true }), commit };
}

export interface InstalledPlugin {
  id: string;
  install: PluginInstall;
  settingsFile: string;
  /** What is wrong with it but does not stop it (a path plugin.json names that is not there). */
  warnings: string[];
}

export async function installPlugin(
  id: string,
  options: {
    scope: PluginScope;
    cwd: string;
    settings?: LoadedSettings;
    /** false: only install (settings already turn it on, as for an install at a session's start). */
    turnOn?: boolean;
  },
): Promise<InstalledPlugin> {
  const { name, marketplace } = parsePluginId(id);
  const market = await findMarketplace(marketplace, options.settings);
  const manifest = readMarketplaceManifest(market.installLocation);
  const entry = manifest.plugins.find((p) => p.name === name);
  if (!entry) {
    const names = manifest.plugins.map((p) => p.name).join(", ") || "none";
    throw new Error(`marketplace ${marketplace} has no plugin named ${name} (it has: ${names})`);
  }
  const { folder, cleanup, commit } = await pluginSourceFolder(market, entry);
  try {
    // A marketplace entry may stand in for a missing plugin.json (Claude Code's `strict: false`).
    const { source: _source, strict: _strict, ...fallback } = entry;
    const plugin = readPluginManifest(folder, fallback);
    // A manifest pointing outside its own folder is refused before anything is copied or recorded.
    const escaping = escapingManifestPaths(folder, plugin);
    if (escaping.length > 0) throw new PluginFormatError(`${id}: plugin.json: ${escaping.join("; ")}`);
    const warnings = missingManifestPaths(folder, plugin).map((problem) => `${id}: plugin.json: ${problem}`);
    const version = plugin.version ?? entry.version ?? commit?.slice(0, 12) ?? "unversioned";
    const dest = pluginCachePath(marketplace, name, version.replace(/[^A-Za-z0-9._-]/g, "_"));
    rmSync(dest, { recursive: true, force: true });
    cpSync(folder, dest, { recursive: true, filter: (path) => !path.split(sep).includes(".git") });
    const now = new Date().toISOString();
    const cwd = resolve(options.cwd);
    const install: PluginInstall = {
      scope: options.scope,
      installPath: dest,
      version,
      installedAt: now,
      lastUpdated: now,
      ...(options.scope !== "user" && { projectPath: cwd }),
      ...(commit && { gitCommitSha: commit }),
    };
    const installed = readInstalledPlugins();
    const others = (installed.plugins[id] ?? []).filter(
      (i) => !(i.scope === install.scope && i.projectPath === install.projectPath),
    );
    installed.plugins[id] = [...others, install];
    writeInstalledPlugins(installed);
    const settingsFile =
      options.turnOn === false
        ? scopeSettingsPath(options.scope, cwd)
        : writeEnabledPlugin(options.scope, cwd, id, true);
    return { id, install, settingsFile, warnings };
  } finally {
    cleanup();
  }
}

/** Removes the install of `id` for the scope, its `enabledPlugins` entry, and its files when no install uses them. */
export function uninstallPlugin(id: string, options: { scope: PluginScope; cwd: string }): { settingsFile: string } {
  parsePluginId(id);
  const cwd = resolve(options.cwd);
  const installed = readInstalledPlugins();
  const installs = installed.plugins[id] ?? [];
  const matches = (i: PluginInstall) =>
    i.scope === options.scope && (options.scope === "user" || i.projectPath === cwd);
  const removed = installs.filter(matches);
  if (removed.length === 0)
    throw new Error(`${id} is not installed at ${options.scope} scope here (warden plugin list)`);
  const kept = installs.filter((i) => !matches(i));
  if (kept.length > 0) installed.plugins[id] = kept;
  else delete installed.plugins[id];
  writeInstalledPlugins(installed);
  const stillUsed = new Set(Object.values(installed.plugins).flatMap((list) => list.map((i) => i.installPath)));
  for (const install of removed) {
    if (!stillUsed.has(install.installPath) && inside(pluginsHome(), install.installPath)) {
      rmSync(install.installPath, { recursive: true, force: true });
    }
  }
  return { settingsFile: writeEnabledPlugin(options.scope, cwd, id, undefined) };
}
