// The language servers an active plugin declares, in Claude Code's format: `.lsp.json` at the
// plugin's root and plugin.json's `lspServers` (a path to such a file, the servers inline, or a list
// of both), each server by name with `command`, `extensionToLanguage` and optional `args`, `env`,
// `initializationOptions`, `settings`, `startupTimeout`. They become entries shaped like settings
// `lspServers` (src/lsp/servers.ts takes them from there), named `plugin:<plugin>:<server>` so they
// cannot take the place of the user's own or built-in servers. `${CLAUDE_PLUGIN_ROOT}` is the
// plugin's folder, and the server gets CLAUDE_PLUGIN_ROOT in its environment, as hooks do.
// Only active plugins reach here: turned on by the user, or by a project the user trusted.
import { join } from "node:path";
import * as z from "zod";
import type { ActivePlugin } from "./active.js";
import { configEntries, readJsonObject, resolvePluginPath, withPluginRoot } from "./components.js";

const DEFAULT_LSP_FILE = "./.lsp.json";

/** One server as Claude Code's plugin reference documents it (unknown keys are a newer version's). */
const pluginLspServerSchema = z.looseObject({
  command: z.string().min(1, "command must not be empty"),
  args: z.array(z.string()).optional(),
  extensionToLanguage: z.record(z.string(), z.string().min(1)).superRefine((map, check) => {
    const keys = Object.keys(map);
    if (keys.length === 0) check.addIssue({ code: "custom", message: "extensionToLanguage names no extension" });
    for (const key of keys.filter((key) => !/^\.[A-Za-z0-9_+-]+$/.test(key))) {
      check.addIssue({ code: "custom", path: [key], message: `"${key}" is not an extension with its dot (".go")` });
    }
  }),
  transport: z.enum(["stdio", "socket"]).optional(),
  env: z.record(z.string(), z.string()).optional(),
  initializationOptions: z.unknown().optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  startupTimeout: z.number().int().positive().optional(),
  // Accepted as documented; Warden starts a server that died again on its next use (once per call).
  workspaceFolder: z.string().optional(),
  shutdownTimeout: z.number().int().positive().optional(),
  restartOnCrash: z.boolean().optional(),
  maxRestarts: z.number().int().nonnegative().optional(),
});

/** A plugin's server in the shape of a settings `lspServers` entry (src/lsp/servers.ts validates it again). */
export interface PluginLspServer {
  command: string;
  args: string[];
  extensions: string[];
  languageIds: Record<string, string>;
  env: Record<string, string>;
  initializationOptions?: unknown;
  settings?: Record<string, unknown>;
  startupTimeout?: number;
}

/** The name a plugin's server goes by in the session (and in settings `lspServers`, to change or turn it off). */
export function pluginLspServerName(plugin: string, server: string): string {
  return `plugin:${plugin}:${server}`;
}

/**
 * Every server the plugin declares, by session name. A malformed entry is left out with a warning
 * naming the plugin, the file and the field; the plugin's other servers still load.
 */
export function pluginLspServers(plugin: ActivePlugin, warnings: string[]): Record<string, PluginLspServer> {
  const servers: Record<string, PluginLspServer> = {};
  const addFrom = (value: Record<string, unknown> | undefined, where: string) => {
    for (const [name, raw] of Object.entries(value ?? {})) {
      const parsed = pluginLspServerSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.length ? `${issue.path.join(".")}: ` : "";
        // A missing required field, said so rather than as a type error about `undefined`.
        const message = issue?.message.endsWith("received undefined") ? "required, missing" : issue?.message;
        warnings.push(
          `plugin ${plugin.id}: ${where}: language server "${name}": ${field}${message ?? "invalid"}; it is not loaded`,
        );
        continue;
      }
      const server = withPluginRoot(parsed.data, plugin.root);
      if (server.transport === "socket") {
        warnings.push(
          `plugin ${plugin.id}: ${where}: language server "${name}" uses the socket transport, which Warden does not support (stdio only); it is not loaded`,
        );
        continue;
      }
      servers[pluginLspServerName(plugin.name, name)] = {
        command: server.command,
        args: server.args ?? [],
        extensions: Object.keys(server.extensionToLanguage),
        languageIds: server.extensionToLanguage,
        env: { CLAUDE_PLUGIN_ROOT: plugin.root, ...server.env },
        ...(server.initializationOptions !== undefined && { initializationOptions: server.initializationOptions }),
        ...(server.settings !== undefined && { settings: server.settings }),
        ...(server.startupTimeout !== undefined && { startupTimeout: server.startupTimeout }),
      };
    }
  };
  const fromFile = (path: string) => {
    const file = resolvePluginPath(plugin.root, path);
    if ("problem" in file) {
      if (path !== DEFAULT_LSP_FILE) warnings.push(`plugin ${plugin.id}: lspServers: ${file.problem}; not loaded`);
      return;
    }
    try {
      addFrom(readJsonObject(file.path), file.path);
    } catch (error) {
      warnings.push(
        `plugin ${plugin.id}: ${file.path}: ${(error as Error).message}; its language servers are not loaded`,
      );
    }
  };
  fromFile(DEFAULT_LSP_FILE);
  for (const entry of configEntries(plugin.manifest.lspServers)) {
    if (typeof entry === "string") fromFile(entry);
    else addFrom(entry, join(plugin.root, ".claude-plugin", "plugin.json"));
  }
  return servers;
}

/** The language servers of every active plugin, by session name. */
export function activePluginLspServers(
  plugins: readonly ActivePlugin[],
  warn: (message: string) => void,
): Record<string, PluginLspServer> {
  const warnings: string[] = [];
  const servers = Object.assign({}, ...plugins.map((plugin) => pluginLspServers(plugin, warnings)));
  for (const warning of warnings) warn(warning);
  return servers;
}
