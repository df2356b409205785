// /plugin: the installed plugins and whether they are on here; `/plugin enable ID` and
// `/plugin disable ID` turn one on or off in the user's settings (~/.warden/settings.json), for the
// next session: a session's commands, hooks and servers are fixed when it starts. Installing and
// marketplaces are `warden plugin ...` in a shell (they clone and copy).
import type { SlashCommand } from "./slash-commands.js";

export const pluginCommand: SlashCommand = {
  name: "plugin",
  argumentHint: "[enable|disable <name@marketplace>]",
  description: "List plugins; turn one on or off (from the next session)",
  run: async (ctx, args) => {
    const cwd = ctx.handle.engine.cwd;
    const [verb, id, ...rest] = args.trim().split(/\s+/).filter(Boolean);
    if (verb === undefined) {
      const { pluginListing } = await import("../../config/plugins/listing.js");
      const { lines, problems } = pluginListing(cwd);
      ctx.transcript.addNotice(
        [
          "Plugins:",
          ...lines.map((line) => `  ${line}`),
          ...problems,
          "Install with `warden plugin install NAME@MARKETPLACE` in a shell.",
        ].join("\n"),
      );
      return;
    }
    if ((verb !== "enable" && verb !== "disable") || id === undefined || rest.length > 0) {
      ctx.transcript.addNotice("Usage: /plugin, /plugin enable <name@marketplace>, /plugin disable <name@marketplace>");
      return;
    }
    try {
      const { parsePluginId, writeEnabledPlugin } = await import("../../config/plugins/install.js");
      parsePluginId(id);
      const file = writeEnabledPlugin("user", cwd, id, verb === "enable");
      ctx.transcript.addNotice(
        `${verb === "enable" ? "Turned on" : "Turned off"} ${id} in ${file}; it takes effect in the next session.`,
      );
    } catch (error) {
      ctx.transcript.addNotice(`/plugin ${verb}: ${(error as Error).message}`);
    }
  },
};
