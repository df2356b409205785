// Which plugins a session runs: every `name@marketplace` that the settings in force turn on (a
// later file overriding an earlier one, so a project or local file may turn off what the user
// turned on), found where it was installed, plus `--plugin-dir` folders for this one session. The
// settings reaching here are already cut by workspace trust (src/config/trust/): an untrusted
// project's `enabledPlugins: true` never arrives, its `false` does. With no plugin turned on and no
// --plugin-dir, nothing is read: a session without plugins pays one object walk.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type PluginManifest, readPluginManifest } from "./manifest.js";
import { findInstall } from "./registry.js";

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
}

interface EnabledSource {
  settings: { enabledPlugins?: Record<string, boolean> };
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
      warnings.push(`plugin ${id} is turned on in settings but not installed: run \`warden plugin install ${id}\``);
      continue;
    }
    add(id, install.installPath);
  }
  return { plugins, warnings };
}
