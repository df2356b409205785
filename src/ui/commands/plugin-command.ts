// /plugin: plugins as Claude Code's /plugin offers them. Without arguments a list to move through
// with the arrows and Enter: the installed plugins (turn off or on, uninstall) and each known
// marketplace (browse its plugins, install one at the scope chosen). Typed forms do the same in one
// line: `/plugin install ID [user|project|local]`, `uninstall ID [scope]`, `enable|disable ID
// [scope]`, `marketplace add SOURCE`, `reload`. A change is offered to the session at once through
// a reload (./plugin-reload.ts), or left for the next session.
import type { InstalledPluginView, MarketplaceView } from "../../config/plugins/listing.js";
import {
  addMarketplaceFromUi,
  installFromUi,
  parseScope,
  SCOPE_CHOICES,
  switchFromUi,
  uninstallFromUi,
} from "./plugin-actions.js";
import { offerReload, reloadSession } from "./plugin-reload.js";
import type { CommandContext, SlashCommand } from "./slash-commands.js";

const USAGE =
  "Usage: /plugin, /plugin install <name@marketplace> [user|project|local], /plugin uninstall|enable|disable <name@marketplace> [scope], /plugin marketplace add <folder | git-url | owner/repo>, /plugin reload";

async function listings(cwd: string) {
  const { marketplaceViews, pluginListing } = await import("../../config/plugins/listing.js");
  return { listing: pluginListing(cwd), marketplaces: marketplaceViews() };
}

function installLabel(install: InstalledPluginView): string {
  const who = install.byClaudeCode ? ", installed by Claude Code" : "";
  return `${install.on ? "on " : "off"}  ${install.id}  ${install.version} (${install.scope}${who})`;
}

/** Runs a change and offers it to the session; a refusal is said and nothing else happens. */
async function change(ctx: CommandContext, what: string, step: () => Promise<string>): Promise<void> {
  let done: string;
  try {
    done = await step();
  } catch (error) {
    ctx.transcript.addNotice(`/plugin ${what}: ${(error as Error).message}`, "error");
    return;
  }
  await offerReload(ctx, done);
}

async function actOnInstall(ctx: CommandContext, install: InstalledPluginView): Promise<void> {
  const cwd = ctx.handle.engine.cwd;
  const actions = [
    install.on
      ? { label: `Turn off (in the ${install.scope} settings)`, value: "disable" }
      : { label: `Turn on (in the ${install.scope} settings)`, value: "enable" },
    ...(install.byClaudeCode ? [] : [{ label: "Uninstall", value: "uninstall" }]),
  ];
  const action = await ctx.pick(`${install.id} ${install.version}`, actions);
  if (action === "enable" || action === "disable") {
    await change(ctx, action, () => switchFromUi(install.id, action === "enable", install.scope, cwd));
  } else if (action === "uninstall") {
    await change(ctx, action, () => uninstallFromUi(install.id, install.scope, cwd));
  }
}

async function browse(ctx: CommandContext, market: MarketplaceView, installs: InstalledPluginView[]): Promise<void> {
  if (market.problem) {
    ctx.transcript.addNotice(`Marketplace ${market.name}: ${market.problem}`, "error");
    return;
  }
  const id = await ctx.pick(
    `Marketplace ${market.name} (${market.source}): pick a plugin`,
    market.plugins.map((p) => {
      const install = installs.find((i) => i.id === p.id);
      const state = install ? (install.on ? "[on] " : "[installed, off] ") : "";
      return { label: `${state}${p.name}${p.description ? ` - ${p.description}` : ""}`, value: p.id };
    }),
  );
  if (id === undefined) return;
  const install = installs.find((i) => i.id === id);
  if (install) return actOnInstall(ctx, install);
  const scope = await ctx.pick(`Install ${id}`, SCOPE_CHOICES);
  if (scope === undefined) return;
  await change(ctx, "install", () => installFromUi(id, parseScope(scope), ctx.handle.engine.cwd));
}

async function pickAndAct(ctx: CommandContext): Promise<void> {
  const { listing, marketplaces } = await listings(ctx.handle.engine.cwd);
  const choices = [
    ...listing.installs.map((install, index) => ({ label: installLabel(install), value: `installed:${index}` })),
    ...marketplaces.map((m, index) => ({
      label: `Browse marketplace ${m.name} (${m.problem ? "unreadable" : `${m.plugins.length} plugins`})`,
      value: `market:${index}`,
    })),
  ];
  if (choices.length === 0) {
    ctx.transcript.addNotice(
      "No plugins or marketplaces yet. Add a marketplace: /plugin marketplace add <folder | git-url | owner/repo>",
    );
    return;
  }
  const notes = [...listing.missing.map((id) => `on but not installed: ${id}`), ...listing.problems];
  const picked = await ctx.pick(
    ["Plugins: pick one to act on, or a marketplace to browse", ...notes].join("\n"),
    choices,
  );
  if (picked === undefined) return;
  const [kind, index] = picked.split(":") as [string, string];
  if (kind === "installed") return actOnInstall(ctx, listing.installs[Number(index)] as InstalledPluginView);
  return browse(ctx, marketplaces[Number(index)] as MarketplaceView, listing.installs);
}

export const pluginCommand: SlashCommand = {
  name: "plugin",
  argumentHint: "[install|uninstall|enable|disable <name@marketplace> | marketplace add <source> | reload]",
  description: "Browse marketplaces; install, turn on or off, or uninstall plugins",
  run: async (ctx, args) => {
    const cwd = ctx.handle.engine.cwd;
    const [verb, arg, third, ...rest] = args.trim().split(/\s+/).filter(Boolean);
    if (verb === undefined) return pickAndAct(ctx);
    if (verb === "reload" && arg === undefined) return reloadSession(ctx);
    if (verb === "marketplace" && arg === "add" && third !== undefined && rest.length === 0) {
      const source = third;
      try {
        ctx.transcript.addNotice(await addMarketplaceFromUi(source, cwd));
      } catch (error) {
        ctx.transcript.addNotice(`/plugin marketplace add: ${(error as Error).message}`, "error");
      }
      return;
    }
    const known = ["install", "uninstall", "enable", "disable"];
    if (!known.includes(verb) || arg === undefined || rest.length > 0) {
      ctx.transcript.addNotice(USAGE);
      return;
    }
    await change(ctx, verb, () => {
      const scope = parseScope(third);
      if (verb === "install") return installFromUi(arg, scope, cwd);
      if (verb === "uninstall") return uninstallFromUi(arg, scope, cwd);
      return switchFromUi(arg, verb === "enable", scope, cwd);
    });
  },
};
