// What an active plugin brings, found in its folder as Claude Code's format lays it out: the
// default folders (commands/, agents/, skills/, output-styles/), hooks/hooks.json and .mcp.json,
// plus any extra paths its plugin.json names. A path that leaves the plugin's folder is refused
// (a manifest cannot point Warden at the user's other files). `${CLAUDE_PLUGIN_ROOT}` in hook
// commands and MCP server settings becomes the plugin's folder, wherever it was installed.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { type HooksConfig, hooksSchema } from "../settings-schema.js";
import type { PluginSkillFolders } from "../skills/locations.js";
import type { ActivePlugin } from "./active.js";

export type PluginFolderKind = "commands" | "agents" | "skills" | "outputStyles";

const DEFAULT_FOLDER: Record<PluginFolderKind, string> = {
  commands: "commands",
  agents: "agents",
  skills: "skills",
  outputStyles: "output-styles",
};

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

/** `path` under the plugin's root, symlinks resolved, or undefined when it leaves the root or is missing. */
function confined(plugin: ActivePlugin, path: string): string | undefined {
  try {
    const root = realpathSync(plugin.root);
    const real = realpathSync(resolve(plugin.root, path));
    return isInside(root, real) ? real : undefined;
  } catch {
    return undefined;
  }
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The plugin's folders of one kind that exist: the default one, then those plugin.json adds. */
export function pluginFolders(plugin: ActivePlugin, kind: PluginFolderKind, warnings: string[] = []): string[] {
  const folders: string[] = [];
  for (const path of [DEFAULT_FOLDER[kind], ...asList(plugin.manifest[kind])]) {
    const real = confined(plugin, path);
    if (real === undefined) {
      if (path !== DEFAULT_FOLDER[kind])
        warnings.push(`plugin ${plugin.id}: ${kind} path ${path} is missing or outside the plugin`);
      continue;
    }
    if (statSync(real).isDirectory() && !folders.includes(real)) folders.push(real);
  }
  return folders;
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

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function readJsonObject(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
  return value as Record<string, unknown>;
}

/**
 * The plugin's hooks, ready for the hook runner: hooks/hooks.json (`{"hooks": {...}}`, or the events
 * at its top) and plugin.json's `hooks`. Each command gets the root substituted and, as Claude Code
 * gives it, `CLAUDE_PLUGIN_ROOT` in its environment, so a script the hook runs can find its files.
 */
export function pluginHooks(plugin: ActivePlugin, warnings: string[]): HooksConfig {
  const found: unknown[] = [];
  const fromFile = (path: string) => {
    const file = confined(plugin, path);
    if (file === undefined) {
      if (path !== "hooks/hooks.json")
        warnings.push(`plugin ${plugin.id}: hooks file ${path} is missing or outside the plugin`);
      return;
    }
    try {
      const json = readJsonObject(file);
      if (json) found.push(json.hooks ?? json);
    } catch (error) {
      warnings.push(`plugin ${plugin.id}: ${file}: ${(error as Error).message}; its hooks are not loaded`);
    }
  };
  fromFile("hooks/hooks.json");
  const declared = plugin.manifest.hooks;
  if (typeof declared === "string") fromFile(declared);
  else if (declared !== undefined) found.push(declared.hooks ?? declared);

  const merged: HooksConfig = {};
  const prefix = `CLAUDE_PLUGIN_ROOT=${shellQuote(plugin.root)}; export CLAUDE_PLUGIN_ROOT; `;
  for (const raw of found) {
    const parsed = hooksSchema.safeParse(raw);
    if (!parsed.success) {
      warnings.push(
        `plugin ${plugin.id}: hooks: ${parsed.error.issues[0]?.message ?? "invalid"}; its hooks are not loaded`,
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
    const file = confined(plugin, path);
    if (file === undefined) {
      if (path !== ".mcp.json") warnings.push(`plugin ${plugin.id}: MCP file ${path} is missing or outside the plugin`);
      return;
    }
    try {
      addFrom(readJsonObject(file), file);
    } catch (error) {
      warnings.push(`plugin ${plugin.id}: ${file}: ${(error as Error).message}; its MCP servers are not loaded`);
    }
  };
  fromFile(".mcp.json");
  const declared = plugin.manifest.mcpServers;
  if (typeof declared === "string") fromFile(declared);
  else if (declared !== undefined) addFrom(declared, join(plugin.root, ".claude-plugin", "plugin.json"));
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
    skills: pluginFolders(plugin, "skills", warnings),
    commands: pluginFolders(plugin, "commands", warnings),
  }));
  for (const warning of warnings) warn(warning);
  return folders.filter((f) => f.skills.length + f.commands.length > 0);
}
