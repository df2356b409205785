// Which plugins a session runs: every `name@marketplace` that the settings in force turn on (a
// later file overriding an earlier one, so a project or local file may turn off what the user
// turned on), found where it was installed, plus `--plugin-dir` folders for this one session. The
// settings reaching here are already cut by workspace trust (src/config/trust/): an untrusted
// project's `enabledPlugins: true` never arrives, its `false` does. With no plugin turned on and no
// --plugin-dir, nothing is read: a session without plugins pays one object walk.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type PluginManifest, readPluginManifest } from "./manifest.js";
import { findInstall, type PluginScope, readKnownMarketplaces } from "./registry.js";

export interface ActivePlugin {
  /** `name@marketplace`, or `name@--plugin-dir` for a folder given on the command line. */
  id: string;
  /** The namespace of its commands, skills and agents (`/name:command`). */
  name: string;
  /** The plugin's folder: `${CLAUDE_PLUGIN_ROOT}`. */
  root: string;
  manifest: PluginManifest;
}

export interface ActivePlugins {
  plugins: ActivePlugin[];
  /** Plugins turned on that cannot run (not installed, broken manifest), one line each. */
  warnings: string[];
  /**
   * Plugins turned on but not installed whose marketplace is known (added, or named in the files'
   * `extraKnownMarketplaces`): the session's start installs them (./auto-install.ts), with the
   * scope of the file that turned each on.
   */
  installable: PluginToInstall[];
}

export interface PluginToInstall {
  id: string;
  scope: PluginScope;
  /** The settings file that turns it on. */
  settingsFile?: string;
}

interface EnabledSource {
  /** Which settings file (userSettings, projectSettings, localSettings, cliArg, policySettings). */
  source?: string;
  path?: string;
  settings: {
    enabledPlugins?: Record<string, boolean>;
    extraKnownMarketplaces?: Record<string, unknown>;
  };
}

/** The scope an install gets when a file of `source` turned the plugin on. */
function scopeOfSource(source: string | undefined): PluginScope {
  return source === "projectSettings" ? "project" : source === "localSettings" ? "local" : "user";
}

/** The ids turned on by the files in force, lowest precedence first, the last word winning. */
export function enabledPluginIds(files: readonly EnabledSource[]): string[] {
  const state = new Map<string, boolean>();
  for (const file of files) {
    for (const [id, on] of Object.entries(file.settings.enabledPlugins ?? {})) state.set(id, on);
  }
  return [...state].filter(([, on]) => on).map(([id]) => id);
}

export interface ResolvePluginsOptions {
  cwd: string;
  files: readonly EnabledSource[];
  /** `--plugin-dir` folders, for this session only. */
  pluginDirs?: readonly string[];
}

export function resolveActivePlugins(options: ResolvePluginsOptions): ActivePlugins {
  const plugins: ActivePlugin[] = [];
  const warnings: string[] = [];
  const installable: PluginToInstall[] = [];
  const cwd = resolve(options.cwd);
  const add = (id: string, root: string) => {
    let manifest: PluginManifest;
    try {
      manifest = readPluginManifest(root, { name: id.split("@")[0] });
    } catch (error) {
      warnings.push(`plugin ${id} is not loaded: ${(error as Error).message}`);
      return;
    }
    const clash = plugins.find((p) => p.name === manifest.name);
    if (clash) {
      warnings.push(`plugin ${id} is not loaded: ${clash.id} already uses the name ${manifest.name}`);
      return;
    }
    plugins.push({ id, name: manifest.name, root, manifest });
  };
  // A folder named on the command line comes first: it is what the person is working on.
  for (const dir of options.pluginDirs ?? []) {
    const root = resolve(cwd, dir);
    if (!existsSync(root)) warnings.push(`--plugin-dir ${dir}: no such folder`);
    else add(`${root.split("/").pop()}@--plugin-dir`, root);
  }
  for (const id of enabledPluginIds(options.files)) {
    const install = findInstall(id, cwd);
    if (!install || !existsSync(install.installPath)) {
      const marketplace = id.slice(id.lastIndexOf("@") + 1);
      if (marketplaceIsKnown(marketplace, options.files)) {
        const file = lastFileTurningOn(id, options.files);
        installable.push({ id, scope: scopeOfSource(file?.source), ...(file?.path && { settingsFile: file.path }) });
      } else {
        warnings.push(
          `plugin ${id} is turned on in settings but not installed, and no marketplace ${marketplace} is known: add it (warden plugin marketplace add SOURCE) or name it in extraKnownMarketplaces`,
        );
      }
      continue;
    }
    add(id, install.installPath);
  }
  return { plugins, warnings, installable };
}

function lastFileTurningOn(id: string, files: readonly EnabledSource[]): EnabledSource | undefined {
  return files.filter((file) => file.settings.enabledPlugins?.[id] === true).pop();
}

/** Added with `warden plugin marketplace add`, or named by a file in force (trust already applied). */
function marketplaceIsKnown(name: string, files: readonly EnabledSource[]): boolean {
  if (files.some((file) => file.settings.extraKnownMarketplaces?.[name] !== undefined)) return true;
  try {
    return readKnownMarketplaces()[name] !== undefined;
  } catch {
    return false;
  }
}
