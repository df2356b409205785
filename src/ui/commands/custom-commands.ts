// The user's and the project's own commands and skills, as the prompt lists them (/help and the
// completion under a `/`). The session re-reads them from disk when asked, so a command file written
// while the session runs is listed, and typed, without a restart.
import type { CustomCommandInfo } from "./custom-command-info.js";
import type { SlashCommand } from "./slash-commands.js";

/**
 * The entries /help and the completion show. A built-in command of the same name wins when typed,
 * so such a file is left out rather than listed as if it ran.
 */
export function customCommandEntries(
  custom: readonly CustomCommandInfo[],
  builtins: readonly SlashCommand[],
): SlashCommand[] {
  const taken = new Set(builtins.map((c) => c.name));
  return custom
    .filter((c) => !taken.has(c.name.toLowerCase()))
    .map((c) => ({
      name: c.name,
      description: `${c.description || "(no description)"} (${c.plugin === undefined ? c.level : `plugin ${c.plugin}`} ${c.kind})`,
      ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
      // Typed custom commands reach the session as prompts (it expands them); never run from here.
      run: () => undefined,
    }));
}

/**
 * The commands a `/partial` at the start of the prompt could be, in the order given; none when it
 * is not one. A namespaced command (a plugin's `tools:greet`) is also found by its short name, which
 * runs it when typed: `/gre` lists `/tools:greet`, as Claude Code's list does. Whole-name matches come first.
 */
export function suggestCommands(text: string, commands: readonly SlashCommand[]): SlashCommand[] {
  const match = /^\/([\w:.-]*)$/.exec(text);
  if (!match) return [];
  const partial = (match[1] as string).toLowerCase();
  const byName = commands.filter((c) => c.name.toLowerCase().startsWith(partial));
  const byShortName = commands.filter(
    (c) => !byName.includes(c) && c.name.includes(":") && shortName(c.name).toLowerCase().startsWith(partial),
  );
  return [...byName, ...byShortName];
}

/** A namespaced name's last part (`tools:greet` → `greet`). */
function shortName(name: string): string {
  return name.slice(name.lastIndexOf(":") + 1);
}
