// Warden's two plugin registries, in Claude Code's shapes: known_marketplaces.json (marketplace name
// → where it comes from and where its copy is) and installed_plugins.json (version 2: plugin id →
// its installs, each with a scope and a folder). Read tolerantly (a missing file is empty; a broken
// one is an error naming it, never overwritten); written atomically by ./registry-write.ts (kept apart: a session only reads).
import { readFileSync } from "node:fs";
import { claudePluginsHome, installedPluginsPath, knownMarketplacesPath } from "./paths.js";

/** Where a marketplace comes from, as Claude Code records it. */
export type MarketplaceSource =
  | { source: "directory"; path: string }
  | { source: "git"; url: string; ref?: string }
  | { source: "github"; repo: string; ref?: string };

export interface KnownMarketplace {
  source: MarketplaceSource;
  /** The folder holding `.claude-plugin/marketplace.json`: the directory itself, or our clone. */
  installLocation: string;
  lastUpdated?: string;
}

export type PluginScope = "user" | "project" | "local";

export interface PluginInstall {
  scope: PluginScope;
  installPath: string;
  version: string;
  installedAt: string;
  lastUpdated: string;
  /** For project and local installs: the folder whose settings enable it. */
  projectPath?: string;
  gitCommitSha?: string;
}

export interface InstalledPlugins {
  version: 2;
  plugins: Record<string, PluginInstall[]>;
}

function readJsonObject(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`${path} cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}); fix or remove it`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${path} does not hold a JSON object; fix or remove it`);
  }
  return value as Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readKnownMarketplaces(path = knownMarketplacesPath()): Record<string, KnownMarketplace> {
  const raw = readJsonObject(path) ?? {};
  const known: Record<string, KnownMarketplace> = {};
  for (const [name, entry] of Object.entries(raw)) {
    if (isRecord(entry) && isRecord(entry.source) && typeof entry.installLocation === "string") {
      known[name] = entry as unknown as KnownMarketplace;
    }
  }
  return known;
}

/** Installs of one file, read in either of Claude Code's shapes (version 1: one install per id). */
export function readInstalledPlugins(path = installedPluginsPath()): InstalledPlugins {
  const raw = readJsonObject(path);
  const plugins: Record<string, PluginInstall[]> = {};
  const entries = isRecord(raw?.plugins) ? raw.plugins : {};
  for (const [id, value] of Object.entries(entries)) {
    const installs = (Array.isArray(value) ? value : [value]).filter(
      (install): install is PluginInstall => isRecord(install) && typeof install.installPath === "string",
    );
    if (installs.length > 0) plugins[id] = installs.map((i) => ({ ...i, scope: i.scope ?? "user" }));
  }
  return { version: 2, plugins };
}

/**
 * Where plugin `id` is installed: Warden's own install first, then Claude Code's (read only). A
 * project-scoped install counts only for its own project.
 */
export function findInstall(id: string, cwd: string): PluginInstall | undefined {
  for (const path of [installedPluginsPath(), installedPluginsPath(claudePluginsHome())]) {
    let installed: InstalledPlugins;
    try {
      installed = readInstalledPlugins(path);
    } catch {
      continue;
    }
    const installs = installed.plugins[id] ?? [];
    const usable = installs.find((i) => i.projectPath === undefined || i.projectPath === cwd);
    if (usable) return usable;
  }
  return undefined;
}
