// `warden plugin ...`: marketplaces and plugins in Claude Code's format (src/plugins/).
//   warden plugin marketplace add SOURCE | list | remove NAME | update [NAME]
//   warden plugin install NAME@MARKETPLACE [--scope user|project|local]
//   warden plugin list | enable ID | disable ID | uninstall ID   [--scope ...]
import { parseArgs } from "node:util";
import type { PluginScope } from "../../config/plugins/registry.js";
import { type CommandIo, processIo } from "./command-io.js";

const USAGE = `Usage: warden plugin marketplace add <folder | git-url | owner/repo>[#ref]
       warden plugin marketplace list | remove <name> | update [<name>]
       warden plugin install <name>@<marketplace> [--scope user|project|local]
       warden plugin list
       warden plugin enable|disable|uninstall <name>@<marketplace> [--scope user|project|local]

Plugins in Claude Code's format: commands (/plugin:command), agents, skills, hooks, MCP and language servers.
--scope says which settings file turns the plugin on: user (~/.warden/settings.json, the default),
project (.claude/settings.json, shared with the repository) or local (.claude/settings.local.json).
A project's plugins wait until you trust the folder (warden trust). For one session without
installing: warden --plugin-dir <folder>.
`;

export async function run(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const out = (text: string) => void io.stdout.write(text);
  const err = (text: string) => void io.stderr.write(text);
  let values: { scope?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { scope: { type: "string", short: "s" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    err(`warden plugin: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help || positionals.length === 0) {
    (values.help ? out : err)(USAGE);
    return values.help ? 0 : 2;
  }
  const scope = (values.scope ?? "user") as PluginScope;
  if (!["user", "project", "local"].includes(scope)) {
    err(`warden plugin: --scope must be user, project or local, not ${JSON.stringify(values.scope)}\n`);
    return 2;
  }
  const [verb, ...rest] = positionals as [string, ...string[]];
  const actions = await import("./plugin-actions.js");
  try {
    if (verb === "marketplace") return await actions.marketplaceCommand(rest, io);
    if (verb === "list" && rest.length === 0) return actions.listPlugins(io);
    const [id, ...extra] = rest;
    if (id === undefined || extra.length > 0) {
      err(`warden plugin ${verb}: expected one <name>@<marketplace>\n\n${USAGE}`);
      return 2;
    }
    if (verb === "install") return await actions.install(id, scope, io);
    if (verb === "uninstall") return actions.uninstall(id, scope, io);
    if (verb === "enable" || verb === "disable") return actions.setEnabled(id, verb === "enable", scope, io);
  } catch (error) {
    err(`warden plugin ${verb}: ${(error as Error).message}\n`);
    return 1;
  }
  err(`warden plugin: unknown command ${JSON.stringify(verb)}\n\n${USAGE}`);
  return 2;
}
