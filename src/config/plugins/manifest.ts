// The two files of Claude Code's plugin format: `.claude-plugin/plugin.json` (a plugin) and
// `.claude-plugin/marketplace.json` (a list of plugins and where each comes from). Unknown keys are
// kept (a newer Claude Code's); a key Warden uses with the wrong shape is an error naming the file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { parseConfigJson } from "../json-text.js";

/** Plugin and marketplace names: what follows `/` and precedes `@`, so no spaces or separators. */
export const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A path, or several, relative to the plugin's root (`./extra/commands`, `./one-command.md`). */
const pathList = z.lazy(() => z.union([z.string(), z.array(z.string())]));

/** A JSON object of configuration given inline (hooks, MCP or language servers). */
const inlineObject = z.lazy(() => z.record(z.string(), z.unknown()));

/** A path to a JSON file, the configuration inline, or a list mixing both (as Claude Code documents). */
const configSources = z.lazy(() => z.union([z.string(), inlineObject, z.array(z.union([z.string(), inlineObject]))]));

export const pluginManifestSchema = z.lazy(() =>
  z.looseObject({
    name: z.string().regex(PLUGIN_NAME, "name must be letters, digits, '.', '_' or '-' (at most 64)"),
    version: z.string().optional(),
    description: z.string().optional(),
    /** Folders or single `.md` files, beside the default folder (never instead of it). */
    commands: pathList.optional(),
    agents: pathList.optional(),
    /** Folders of skill folders, or one skill's own folder (holding SKILL.md). */
    skills: pathList.optional(),
    outputStyles: pathList.optional(),
    /** Hooks files (`{"hooks": {...}}`) or the hooks themselves, beside hooks/hooks.json. */
    hooks: configSources.optional(),
    /** MCP files (`{"mcpServers": {...}}`) or the servers themselves, beside .mcp.json. */
    mcpServers: configSources.optional(),
    /** Language-server files (servers by name, as in .lsp.json) or the servers themselves, beside .lsp.json. */
    lspServers: configSources.optional(),
  }),
);
export type PluginManifest = z.infer<typeof pluginManifestSchema>;

/** Where a marketplace's plugin comes from: a folder inside the marketplace, or a repository. */
export const pluginSourceSchema = z.lazy(() =>
  z.union([
    z.string(),
    z.looseObject({ source: z.literal("github"), repo: z.string(), ref: z.string().optional() }),
    z.looseObject({ source: z.enum(["git", "url"]), url: z.string(), ref: z.string().optional() }),
  ]),
);
export type PluginSource = z.infer<typeof pluginSourceSchema>;

export const marketplaceEntrySchema = z.lazy(() =>
  z.looseObject({
    name: z.string().regex(PLUGIN_NAME, "plugin name must be letters, digits, '.', '_' or '-'"),
    source: pluginSourceSchema,
    description: z.string().optional(),
    version: z.string().optional(),
    /** false: the entry itself is the manifest (a plugin folder without plugin.json). */
    strict: z.boolean().optional(),
  }),
);
export type MarketplaceEntry = z.infer<typeof marketplaceEntrySchema>;

export const marketplaceManifestSchema = z.lazy(() =>
  z.looseObject({
    name: z.string().regex(PLUGIN_NAME, "marketplace name must be letters, digits, '.', '_' or '-'"),
    owner: z.looseObject({ name: z.string().optional() }).optional(),
    plugins: z.array(marketplaceEntrySchema),
  }),
);
export type MarketplaceManifest = z.infer<typeof marketplaceManifestSchema>;

export class PluginFormatError extends Error {
  override name = "PluginFormatError";
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PluginFormatError(`${file}: ${code === "ENOENT" ? "not found" : `cannot be read (${code})`}`);
  }
  try {
    return parseConfigJson(text);
  } catch (error) {
    throw new PluginFormatError(`${file}: invalid JSON (${(error as Error).message})`);
  }
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw new PluginFormatError(`${file}: ${where}${issue?.message ?? "invalid"}`);
}

export function pluginManifestFile(root: string): string {
  return join(root, ".claude-plugin", "plugin.json");
}

/**
 * The plugin at `root`. Without a plugin.json, `fallback` (a marketplace entry's fields, or the
 * folder's name) stands in, as Claude Code allows for `strict: false` entries and bare folders.
 */
export function readPluginManifest(root: string, fallback?: Record<string, unknown>): PluginManifest {
  const file = pluginManifestFile(root);
  let raw: unknown;
  try {
    raw = readJson(file);
  } catch (error) {
    if (fallback && error instanceof PluginFormatError && error.message.endsWith(": not found")) {
      return parsed(pluginManifestSchema, fallback, `${root} (no plugin.json)`);
    }
    throw error;
  }
  return parsed(pluginManifestSchema, raw, file);
}

export function marketplaceManifestFile(root: string): string {
  return join(root, ".claude-plugin", "marketplace.json");
}

export function readMarketplaceManifest(root: string): MarketplaceManifest {
  const file = marketplaceManifestFile(root);
  return parsed(marketplaceManifestSchema, readJson(file), file);
}
