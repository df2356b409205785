// /output-style: the output styles this folder can use, to pick from, the one in force marked
// (`/output-style NAME` picks directly). The choice is saved as `outputStyle` in the project's
// .claude/settings.local.json (as Claude Code does) for the next session. A style's text is part of the system prompt, which stays the
// same for a whole session (so its cache keeps working): this session keeps its style.
import type { SlashCommand } from "./slash-commands.js";

export const outputStyleCommand: SlashCommand = {
  name: "output-style",
  argumentHint: "[name]",
  description: "List output styles; pick one (from the next session)",
  run: async (ctx, args) => {
    const cwd = ctx.handle.engine.cwd;
    const current = (ctx.handle.outputStyle ?? "default").toLowerCase();
    const { loadOutputStyles, saveOutputStyle } = await import("../../config/output-styles.js");
    const warnings: string[] = [];
    const styles = loadOutputStyles(cwd, warnings);
    // Without a name: a list to pick from, the style in force marked.
    const wanted =
      args.trim() ||
      (await ctx.pick(
        ["Output style (applies from the next session):", ...warnings].join("\n"),
        styles.map((style) => ({
          label: `${style.name.toLowerCase() === current ? "* " : "  "}${style.name}${
            style.description ? ` - ${style.description}` : ""
          } (${style.source === "built-in" ? "built-in" : (style.path ?? style.source)})`,
          value: style.name,
        })),
      ));
    if (wanted === undefined) return;
    const style = styles.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
    if (!style) {
      ctx.transcript.addNotice(
        `/output-style: no output style is named "${wanted}" (${styles.map((s) => s.name).join(", ")})`,
      );
      return;
    }
    try {
      const file = saveOutputStyle(cwd, style.name);
      ctx.transcript.addNotice(
        `Output style ${style.name} saved in ${file}; it applies from the next session (this one keeps ${ctx.handle.outputStyle ?? "default"}).`,
      );
    } catch (error) {
      ctx.transcript.addNotice(`/output-style: ${(error as Error).message}`);
    }
  },
};
