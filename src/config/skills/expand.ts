// A skill's or command's text as the model receives it when it is invoked: the body read fresh
// from its file, with the arguments put in. `$ARGUMENTS` is everything after the name; `$1` ... `$9`
// are its words (quotes group words), and `$name` the word at the position of `name` in the
// frontmatter's `arguments`. Text that uses none of them gets the arguments appended, so what the
// user or model passed is never silently dropped.
import { readFile } from "node:fs/promises";
import { parseFrontmatter } from "./frontmatter.js";
import { findCommand, findSkill, type SkillCatalog, type SkillDefinition, type SlashCommand } from "./types.js";

/** Words of an argument string: whitespace separates, "double" or 'single' quotes group. */
export function argumentWords(args: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let match = pattern.exec(args); match !== null; match = pattern.exec(args)) {
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  }
  return words;
}

export function substituteArguments(body: string, args: string, names: readonly string[] = []): string {
  const trimmed = args.trim();
  return substituteWords(body, trimmed, argumentWords(trimmed), names);
}

/**
 * The same with the words already apart (an MCP client sends each named argument on its own, and
 * a value may hold spaces): `text` is what `$ARGUMENTS` becomes.
 */
export function substituteWords(
  body: string,
  text: string,
  words: readonly string[],
  names: readonly string[],
): string {
  const placeholders = ["ARGUMENTS", "[1-9]", ...names.filter((name) => NAME.test(name))];
  const pattern = new RegExp(`\\$(${placeholders.join("|")})\\b`, "g");
  let used = false;
  const result = body.replace(pattern, (_whole, which: string) => {
    used = true;
    if (which === "ARGUMENTS") return text;
    const position = /^[1-9]$/.test(which) ? Number(which) - 1 : names.indexOf(which);
    return words[position] ?? "";
  });
  if (used || text === "") return result;
  return `${result.replace(/\s+$/, "")}\n\nARGUMENTS: ${text}`;
}

/** What a named argument may be called: `$name` must be told apart from the text around it. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The frontmatter's `arguments`: a space-separated string or a list; names that cannot be `$name` are refused. */
export function argumentNamesOf(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const names = Array.isArray(value)
    ? value
    : typeof value === "string"
      ? value.split(/\s+/).filter(Boolean)
      : undefined;
  if (!names || names.some((name) => typeof name !== "string")) {
    throw new Error("`arguments` must be a space-separated string or a list of names");
  }
  for (const name of names as string[]) {
    if (!NAME.test(name) || name === "ARGUMENTS") {
      throw new Error(
        `\`arguments\`: ${JSON.stringify(name)} is not a name $${name} could stand for (letters, digits, _)`,
      );
    }
  }
  return names as string[];
}

/** The body of a skill or command file (frontmatter removed), read now. */
export async function readInstructions(file: string): Promise<string> {
  return (await parseFrontmatter(await readFile(file, "utf8"))).body;
}

/** A skill's text for the conversation: where its resources are, then its instructions. */
export async function skillPrompt(skill: SkillDefinition, args: string, words?: readonly string[]): Promise<string> {
  const instructions = await readInstructions(skill.file);
  const names = skill.argumentNames ?? [];
  const body = words
    ? substituteWords(instructions, args, words, names)
    : substituteArguments(instructions, args, names);
  return `Base directory of this skill (its other files are here): ${skill.dir}\n\n${body.trim()}`;
}

/** What a `/name args` prompt turned out to be. */
export type SlashExpansion =
  | { kind: "command"; command: SlashCommand; prompt: string }
  | { kind: "skill"; skill: SkillDefinition; prompt: string };

/**
 * `/name args` as the whole prompt, when `name` is a command (first) or a skill: its text with the
 * arguments put in. Undefined when the prompt is no such thing (a path like `/tmp/x` stays a prompt).
 */
export async function expandSlashPrompt(prompt: string, catalog: SkillCatalog): Promise<SlashExpansion | undefined> {
  const match = /^\/([A-Za-z0-9][A-Za-z0-9._:-]*)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!match) return undefined;
  const name = match[1] as string;
  const args = match[2] ?? "";
  const command = findCommand(catalog, name);
  if (command) {
    const body = substituteArguments(await readInstructions(command.file), args, command.argumentNames);
    return { kind: "command", command, prompt: body.trim() };
  }
  const skill = findSkill(catalog, name);
  if (skill) return { kind: "skill", skill, prompt: await skillPrompt(skill, args) };
  return undefined;
}
