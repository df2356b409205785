// What an active plugin brings, found in its folder as Claude Code's format lays it out: the
// default folders (commands/, agents/, skills/, output-styles/), hooks/hooks.json and .mcp.json,
// plus any extra paths its plugin.json names. A path that leaves the plugin's folder is refused
// (a manifest cannot point Warden at the user's other files). `${CLAUDE_PLUGIN_ROOT}` in hook
// commands and MCP server settings becomes the plugin's folder, wherever it was installed.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { parseConfigJson } from "../json-text.js";
import { type HooksConfig, hooksSchema, unknownHookEvents } from "../settings-schema.js";
import type { PluginSkillFolders } from "../skills/locations.js";
import type { ActivePlugin } from "./active.js";
import type { PluginManifest } from "./manifest.js";

export type PluginPathKind = "commands" | "agents" | "skills" | "outputStyles";

const DEFAULT_FOLDER: Record<PluginPathKind, string> = {
  commands: "./commands",
  agents: "./agents",
  skills: "./skills",
  outputStyles: "./output-styles",
};

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** A path plugin.json names, resolved under the plugin's root, or why it cannot be used. */
export type PluginPath = { path: string } | { problem: string };

/**
 * `path` (from plugin.json) under the plugin's root, symlinks resolved. A manifest may only point
 * inside its own plugin: an absolute path, a `..` that climbs out, or a symlink leading out would
 * let an installed plugin load the user's other files as its commands or hooks, so each is refused
 * with its reason. `${CLAUDE_PLUGIN_ROOT}/x` is the same as `./x`.
 */
export function resolvePluginPath(root: string, path: string): PluginPath {
  const written = withPluginRoot(path, ".");
  if (isAbsolute(written)) return { problem: `${path} is absolute; paths must be relative to the plugin (./...)` };
  const lexical = resolve(root, written);
  if (!isInside(resolve(root), lexical)) return { problem: `${path} leads outside the plugin's folder` };
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    return { problem: `${path} does not exist in the plugin` };
  }
  try {
    if (!isInside(realpathSync(root), real))
      return { problem: `${path} leads outside the plugin's folder (a symlink)` };
  } catch {
    return { problem: `the plugin's folder ${root} cannot be read` };
  }
  return { path: real };
}

const MISSING = "does not exist in the plugin";

/** Each path plugin.json names, with its field, and what resolving it found. */
function manifestPaths(root: string, manifest: PluginManifest): Array<{ field: string; found: PluginPath }> {
  const written: Array<{ field: string; path: string }> = [];
  for (const kind of Object.keys(DEFAULT_FOLDER) as PluginPathKind[]) {
    for (const path of asList(manifest[kind])) written.push({ field: kind, path });
  }
  for (const key of ["hooks", "mcpServers", "lspServers"] as const) {
    for (const entry of configEntries(manifest[key]))
      if (typeof entry === "string") written.push({ field: key, path: entry });
  }
  return written.map(({ field, path }) => ({ field, found: resolvePluginPath(root, path) }));
}

/** Every path plugin.json names that leaves the plugin (absolute, `..`): refused at install. */
export function escapingManifestPaths(root: string, manifest: PluginManifest): string[] {
  return manifestPaths(root, manifest).flatMap(({ found }) =>
    "problem" in found && !found.problem.endsWith(MISSING) ? [found.problem] : [],
  );
}

/**
 * Every path plugin.json names that is not in the plugin: a warning at install (a typo, or a folder
 * left out of the package), as each session would otherwise skip it with a warning of its own.
 */
export function missingManifestPaths(root: string, manifest: PluginManifest): string[] {
  return manifestPaths(root, manifest).flatMap(({ field, found }) =>
    "problem" in found && found.problem.endsWith(MISSING) ? [`${field}: ${found.problem}`] : [],
  );
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

type ConfigEntry = string | Record<string, unknown>;

/** plugin.json's `hooks`, `mcpServers` or `lspServers` as a list: each a file path or an inline object. */
export function configEntries(value: PluginManifest["hooks"]): ConfigEntry[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * The plugin's paths of one kind that exist: the default folder, then what plugin.json adds (a
 * folder, or a single `.md` file for commands, agents and output styles; for skills a folder of
 * skill folders or one skill's own folder). Added paths supplement the default, as in Claude Code.
 */
export function pluginComponentPaths(plugin: ActivePlugin, kind: PluginPathKind, warnings: string[] = []): string[] {
  const paths: string[] = [];
  for (const path of [DEFAULT_FOLDER[kind], ...asList(plugin.manifest[kind])]) {
    const found = resolvePluginPath(plugin.root, path);
    if ("problem" in found) {
      if (path !== DEFAULT_FOLDER[kind]) warnings.push(`plugin ${plugin.id}: ${kind}: ${found.problem}; skipped`);
      continue;
    }
    const info = statSync(found.path);
    const usable = info.isDirectory() || (kind !== "skills" && info.isFile() && found.path.endsWith(".md"));
    if (!usable) {
      warnings.push(
        `plugin ${plugin.id}: ${kind}: ${path} is not a folder${kind === "skills" ? "" : " or .md file"}; skipped`,
      );
      continue;
    }
    if (!paths.includes(found.path)) paths.push(found.path);
  }
  return paths;
}

/** What plugin files write for their own folder (a literal, not a template of ours). */
const PLUGIN_ROOT_VARIABLE = ["$", "{CLAUDE_PLUGIN_ROOT}"].join("");

/** `${CLAUDE_PLUGIN_ROOT}` replaced in every string of `value`. */
export function withPluginRoot<T>(value: T, root: string): T {
  if (typeof value === "string") return value.split(PLUGIN_ROOT_VARIABLE).join(root) as T;
  if (Array.isArray(value)) return value.map((item) => withPluginRoot(item, root)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPluginRoot(v, root)])) as T;
  }
  return value;
}

const DEFAULT_HOOKS_FILE = "./hooks/hooks.json";
const DEFAULT_MCP_FILE = "./.mcp.json";

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A JSON file holding an object; undefined when it cannot be read, an error when it is not an object. */
export function readJsonObject(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const value: unknown = parseConfigJson(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
  return value as Record<string, unknown>;
}

/**
 * The plugin's hooks, ready for the hook runner: hooks/hooks.json (`{"hooks": {...}}`, or the events
 * at its top) and plugin.json's `hooks`. Each command gets the root substituted and, as Claude Code
 * gives it, `CLAUDE_PLUGIN_ROOT` in its environment, so a script the hook runs can find its files.
 */
export function pluginHooks(plugin: ActivePlugin, warnings: string[]): HooksConfig {
  /** Each hooks object with where it was written, so a warning can name the file. */
  const found: Array<{ raw: unknown; where: string }> = [];
  const fromFile = (path: string) => {
    const file = resolvePluginPath(plugin.root, path);
    if ("problem" in file) {
      if (path !== DEFAULT_HOOKS_FILE) warnings.push(`plugin ${plugin.id}: hooks: ${file.problem}; not loaded`);
      return;
    }
    try {
      const json = readJsonObject(file.path);
      if (json) found.push({ raw: json.hooks ?? json, where: file.path });
    } catch (error) {
      warnings.push(`plugin ${plugin.id}: ${file.path}: ${(error as Error).message}; its hooks are not loaded`);
    }
  };
  fromFile(DEFAULT_HOOKS_FILE);
  for (const entry of configEntries(plugin.manifest.hooks)) {
    if (typeof entry === "string") fromFile(entry);
    else found.push({ raw: entry.hooks ?? entry, where: "plugin.json" });
  }

  const merged: HooksConfig = {};
  const prefix = `CLAUDE_PLUGIN_ROOT=${shellQuote(plugin.root)}; export CLAUDE_PLUGIN_ROOT; `;
  for (const { raw, where } of found) {
    // As for a settings file's hooks: a misspelt event would otherwise never fire, without a word.
    for (const event of unknownHookEvents(raw)) {
      warnings.push(
        `plugin ${plugin.id}: ${where}: hooks.${event}: Warden does not run this hook event; its hooks will never fire`,
      );
    }
    const parsed = hooksSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = ["hooks", ...(issue?.path ?? []).map(String)].join(".");
      warnings.push(
        `plugin ${plugin.id}: ${where}: ${field}: ${issue?.message ?? "invalid"}; its hooks are not loaded`,
      );
      continue;
    }
    for (const [event, matchers] of Object.entries(parsed.data) as Array<
      [keyof HooksConfig, HooksConfig[keyof HooksConfig]]
    >) {
      if (!Array.isArray(matchers)) continue;
      const ready = matchers.map((matcher) => ({
        ...matcher,
        hooks: matcher.hooks.map((hook) =>
          hook.type === "command"
            ? { ...hook, command: `${prefix}${withPluginRoot(hook.command, plugin.root)}` }
            : hook,
        ),
      }));
      merged[event] = [...(merged[event] ?? []), ...ready];
    }
  }
  return merged;
}

/**
 * The plugin's MCP servers (.mcp.json and plugin.json's `mcpServers`), named `plugin_<plugin>_<server>`
 * as Claude Code names them so their tools cannot collide with the user's own servers.
 */
export function pluginMcpServers(plugin: ActivePlugin, warnings: string[]): Record<string, Record<string, unknown>> {
  const servers: Record<string, Record<string, unknown>> = {};
  const addFrom = (value: unknown, where: string) => {
    const object =
      typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const inner = object.mcpServers ?? object;
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) {
      warnings.push(`plugin ${plugin.id}: ${where}: expected an object of MCP servers`);
      return;
    }
    for (const [name, config] of Object.entries(inner)) {
      if (typeof config !== "object" || config === null) continue;
      const ready = withPluginRoot(config as Record<string, unknown>, plugin.root);
      const env = { CLAUDE_PLUGIN_ROOT: plugin.root, ...((ready.env as Record<string, string> | undefined) ?? {}) };
      servers[`plugin_${plugin.name}_${name}`] = typeof ready.command === "string" ? { ...ready, env } : ready;
    }
  };
  const fromFile = (path: string) => {
    const file = resolvePluginPath(plugin.root, path);
    if ("problem" in file) {
      if (path !== DEFAULT_MCP_FILE) warnings.push(`plugin ${plugin.id}: mcpServers: ${file.problem}; not loaded`);
      return;
    }
    try {
      addFrom(readJsonObject(file.path), file.path);
    } catch (error) {
      warnings.push(`plugin ${plugin.id}: ${file.path}: ${(error as Error).message}; its MCP servers are not loaded`);
    }
  };
  fromFile(DEFAULT_MCP_FILE);
  for (const entry of configEntries(plugin.manifest.mcpServers)) {
    if (typeof entry === "string") fromFile(entry);
    else addFrom(entry, join(plugin.root, ".claude-plugin", "plugin.json"));
  }
  return servers;
}

/** Several hook configurations as one, in order (every hook runs, as Claude Code runs them all). */
export function mergeHooks(...configs: HooksConfig[]): HooksConfig {
  const merged: HooksConfig = {};
  for (const config of configs) {
    for (const [event, matchers] of Object.entries(config) as Array<
      [keyof HooksConfig, HooksConfig[keyof HooksConfig]]
    >) {
      if (matchers?.length) merged[event] = [...(merged[event] ?? []), ...matchers];
    }
  }
  return merged;
}

/** The skill and command folders of the active plugins, for discovery (src/config/skills/). */
export function pluginSkillFolders(
  plugins: readonly ActivePlugin[],
  warn: (message: string) => void,
): PluginSkillFolders[] {
  const warnings: string[] = [];
  const folders = plugins.map((plugin) => ({
    plugin: plugin.name,
    skills: pluginComponentPaths(plugin, "skills", warnings),
    commands: pluginComponentPaths(plugin, "commands", warnings),
  }));
  for (const warning of warnings) warn(warning);
  return folders.filter((f) => f.skills.length + f.commands.length > 0);
}

/** The output style folders and files of the active plugins (src/config/output-styles.ts reads them). */
export function pluginOutputStylePaths(
  plugins: readonly ActivePlugin[],
  warn: (message: string) => void,
): Array<{ plugin: string; paths: string[] }> {
  const warnings: string[] = [];
  const found = plugins.map((plugin) => ({
    plugin: plugin.name,
    paths: pluginComponentPaths(plugin, "outputStyles", warnings),
  }));
  for (const warning of warnings) warn(warning);
  return found.filter((f) => f.paths.length > 0);
}
