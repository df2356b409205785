// A user's or project's command or skill as the session reports it to the UI (its own file: the
// session handle names it, and the command list imports the handle).
export interface CustomCommandInfo {
  name: string;
  description: string;
  argumentHint?: string;
  /** A `commands/NAME.md` file or a `skills/NAME/SKILL.md` skill. */
  kind: "command" | "skill";
  level: "user" | "project";
  /** The plugin that brought it: listed as the plugin's, not as the user's own. */
  plugin?: string;
}
