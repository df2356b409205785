// The names of Warden's built-in slash commands, and the text of the one a headless run can do
// (`/init`). A repository's command or skill may not take one of these names: `warden -p "/init"`
// ran a cloned repository's `.claude/commands/init.md` (with its grants) instead of the built-in.
// As in Claude Code, whose documentation says built-in commands take precedence and cannot be
// overridden, the built-in wins; a command or skill file of the same name (any level, any case)
// is not loaded, with a warning naming it, rather than kept under a second name, so `/init` always
// means one thing and nothing the repository wrote runs in its place. The interactive UI's list
// (src/ui/commands/builtins.ts) is checked against this one by a test.

export const BUILT_IN_COMMAND_NAMES: readonly string[] = [
  "help",
  "exit",
  "clear",
  "compact",
  "cost",
  "model",
  "resume",
  "agents",
  "undo",
  "init",
  "permissions",
  "mcp",
  "plugin",
  "output-style",
  "add-dir",
  "context",
  "status",
  "export",
];

const RESERVED = new Set(BUILT_IN_COMMAND_NAMES);

/** Whether `name` (as typed after `/`, any case) is a built-in command's. */
export function isBuiltInCommandName(name: string): boolean {
  return RESERVED.has(name.toLowerCase());
}

/** What `/init` asks the model, in the UI and in a headless run. */
export const INIT_PROMPT =
  "Look through this project (its layout, build and test commands, conventions) and write an AGENTS.md at its root: a short guide for a coding agent working here. Keep what an existing AGENTS.md says that is still true.";
