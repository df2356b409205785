// What `warden plugin ...` does once its arguments are read (./plugin.ts): each action prints what
// it changed (the file written) so the person can see where a plugin was turned on.

import { installPlugin, parsePluginId, uninstallPlugin, writeEnabledPlugin } from "../../config/plugins/install.js";
import { pluginListing } from "../../config/plugins/listing.js";
import {
  addMarketplace,
  describeSource,
  readMarketplace,
  removeMarketplace,
  updateMarketplace,
} from "../../config/plugins/marketplaces.js";
import { type PluginScope, readKnownMarketplaces } from "../../config/plugins/registry.js";
import { loadSettings } from "../../config/settings.js";
import type { CommandIo } from "./command-io.js";

export async function marketplaceCommand(args: string[], io: CommandIo): Promise<number> {
  const [verb, arg, ...extra] = args;
  const out = (text: string) => void io.stdout.write(text);
  if (extra.length > 0) throw new Error("too many arguments");
  if (verb === "add" && arg) {
    const added = await addMarketplace(arg, io.cwd);
    out(
      `Added marketplace ${added.name} (${added.manifest.plugins.length} plugin(s)) from ${describeSource(added.entry.source)}\n`,
    );
    out(`Install one with: warden plugin install <name>@${added.name}\n`);
    return 0;
  }
  if (verb === "list" && !arg) {
    const known = readKnownMarketplaces();
    const settings = loadSettings({ cwd: io.cwd });
    const extras = new Map<string, unknown>();
    for (const file of settings.files) {
      for (const [name, entry] of Object.entries(file.settings.extraKnownMarketplaces ?? {}))
        extras.set(name, entry.source);
    }
    if (Object.keys(known).length === 0 && extras.size === 0) {
      out("No marketplaces. Add one with: warden plugin marketplace add <folder | git-url | owner/repo>\n");
      return 0;
    }
    for (const [name, entry] of Object.entries(known)) {
      let count = "";
      try {
        count = ` (${readMarketplace(entry).plugins.length} plugins)`;
      } catch (error) {
        count = ` (unreadable: ${(error as Error).message})`;
      }
      out(`${name}  ${describeSource(entry.source)}${count}\n`);
    }
    for (const [name, source] of extras) {
      if (!known[name])
        out(`${name}  ${describeSource(source as Record<string, unknown>)} (from settings; added on first install)\n`);
    }
    return 0;
  }
  if (verb === "remove" && arg) {
    removeMarketplace(arg);
    out(`Removed marketplace ${arg}. Plugins installed from it stay installed (warden plugin uninstall).\n`);
    return 0;
  }
  if (verb === "update") {
    const names = arg ? [arg] : Object.keys(readKnownMarketplaces());
    for (const name of names) {
      const manifest = await updateMarketplace(name);
      out(`Updated marketplace ${name} (${manifest.plugins.length} plugins)\n`);
    }
    return 0;
  }
  throw new Error(`expected add <source>, list, remove <name> or update [<name>]`);
}

export async function install(id: string, scope: PluginScope, io: CommandIo): Promise<number> {
  const settings = loadSettings({ cwd: io.cwd });
  const done = await installPlugin(id, { scope, cwd: io.cwd, settings });
  io.stdout.write(
    `Installed ${id} ${done.install.version} into ${done.install.installPath}\nTurned on in ${done.settingsFile}\n`,
  );
  if (scope !== "user") io.stdout.write(projectScopeNote(io.cwd));
  // Installed all the same (Claude Code loads such a plugin too), but each session would skip the
  // path with a warning the person may never connect to the install: said here, once.
  for (const warning of done.warnings) io.stderr.write(`warning: ${warning}; it will be skipped\n`);
  return 0;
}

export function uninstall(id: string, scope: PluginScope, io: CommandIo): number {
  const done = uninstallPlugin(id, { scope, cwd: io.cwd });
  io.stdout.write(`Uninstalled ${id}; removed from ${done.settingsFile}\n`);
  return 0;
}

export function setEnabled(id: string, on: boolean, scope: PluginScope, io: CommandIo): number {
  parsePluginId(id);
  const file = writeEnabledPlugin(scope, io.cwd, id, on);
  io.stdout.write(`${on ? "Turned on" : "Turned off"} ${id} in ${file}\n`);
  if (on && scope !== "user") io.stdout.write(projectScopeNote(io.cwd));
  return 0;
}

/** A folder's own settings turn plugins on only once the folder is trusted (src/config/trust/). */
function projectScopeNote(cwd: string): string {
  const trust = loadSettings({ cwd }).workspaceTrust;
  return trust.status === "untrusted"
    ? `This folder's settings take effect once you trust it: warden trust ${cwd}\n`
    : "";
}

export function listPlugins(io: CommandIo): number {
  const { lines, problems } = pluginListing(io.cwd);
  for (const problem of problems) io.stderr.write(`warden plugin list: ${problem}\n`);
  io.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
