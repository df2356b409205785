// MCP prompts of `warden mcp serve`: the slash commands and skills a session would offer as
// `/name args` (the user's and the project's, src/config/skills/), so a client's user can pick them
// from its own prompt menu. A prompt is text only: what a command's `allowed-tools` would grant in a
// session is not granted here, since the client's model calls Warden's tools under the server's
// own rules. The files are looked at again on every request, so an edit is served at once.
// A command or skill whose frontmatter names its arguments (`arguments: file focus`) takes them as
// the prompt's arguments, one by one; any other takes the whole text after `/name` as `arguments`.

import type { SkillCatalog } from "../../config/skills/index.js";
import {
  discoverSkills,
  readInstructions,
  skillPrompt,
  substituteArguments,
  substituteWords,
} from "../../config/skills/index.js";

/** The argument of a prompt without named ones: the text after `/name`, as `$ARGUMENTS` and `$1`...`$9` see it. */
export const PROMPT_ARGUMENT = "arguments";

export type PromptListing = {
  name: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
};

/** A type, not an interface: the SDK's result type has an index signature an interface cannot meet. */
export type PromptText = {
  description?: string;
  messages: Array<{ role: "user"; content: { type: "text"; text: string } }>;
};

export class UnknownPromptError extends Error {}

/**
 * Commands first, then skills not shadowed by a command of the same name (as `/name` resolves).
 * `projectTrusted` does not matter here: it decides grants, and prompts grant nothing.
 */
export async function loadPromptCatalog(cwd: string): Promise<SkillCatalog> {
  return discoverSkills({ cwd, projectTrusted: false });
}

export function listPrompts(catalog: SkillCatalog): PromptListing[] {
  const seen = new Set<string>();
  const prompts: PromptListing[] = [];
  for (const item of [...catalog.commands, ...catalog.skills]) {
    if (seen.has(item.name)) continue;
    seen.add(item.name);
    const hint = item.argumentHint ? ` (${item.argumentHint})` : "";
    const names = item.argumentNames ?? [];
    prompts.push({
      name: item.name,
      // Clients show the description in their menus (and the conformance suite wants one).
      description: item.description || `The /${item.name} command`,
      // Not required: as after `/name`, an argument left out is empty.
      arguments:
        names.length > 0
          ? names.map((name, i) => ({
              name,
              description: `Argument ${i + 1} of /${item.name}${hint}, $${name} in its text`,
              required: false,
            }))
          : [{ name: PROMPT_ARGUMENT, description: `What follows /${item.name}${hint}`, required: false }],
    });
  }
  return prompts;
}

/** The prompt's text with its arguments put in, as a session's `/name args` would send it. */
export async function getPrompt(
  catalog: SkillCatalog,
  name: string,
  args: Record<string, string> | undefined,
): Promise<PromptText> {
  const command = catalog.commands.find((c) => c.name === name);
  if (command) {
    const instructions = await readInstructions(command.file);
    const names = command.argumentNames ?? [];
    const body =
      names.length > 0
        ? substituteWords(instructions, ...namedArguments(names, args), names)
        : substituteArguments(instructions, args?.[PROMPT_ARGUMENT] ?? "");
    return message(command.description, body.trim());
  }
  const skill = catalog.skills.find((s) => s.name === name);
  if (skill) {
    const names = skill.argumentNames ?? [];
    const text =
      names.length > 0
        ? await skillPrompt(skill, ...namedArguments(names, args))
        : await skillPrompt(skill, args?.[PROMPT_ARGUMENT] ?? "");
    return message(skill.description, text);
  }
  throw new UnknownPromptError(`No such prompt: ${name}`);
}

/** `$ARGUMENTS` (the values in order, as if typed after `/name`) and the values, position by position. */
function namedArguments(names: readonly string[], args: Record<string, string> | undefined): [string, string[]] {
  const words = names.map((name) => args?.[name] ?? "");
  return [words.filter((word) => word !== "").join(" "), words];
}

function message(description: string | undefined, text: string): PromptText {
  return {
    ...(description ? { description } : {}),
    messages: [{ role: "user", content: { type: "text", text } }],
  };
}
