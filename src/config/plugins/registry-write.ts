// Writes of the plugin registries (./registry.ts reads them), atomic so a crash leaves the old file
// or the new one. Only `warden plugin ...` and /plugin write; sessions read.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { installedPluginsPath, knownMarketplacesPath } from "./paths.js";
import type { InstalledPlugins, KnownMarketplace } from "./registry.js";

export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(value, null, 2)}\n`));
}

export function writeKnownMarketplaces(known: Record<string, KnownMarketplace>): void {
  writeJsonFile(knownMarketplacesPath(), known);
}

export function writeInstalledPlugins(installed: InstalledPlugins): void {
  writeJsonFile(installedPluginsPath(), installed);
}
