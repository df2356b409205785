// A skill's or command's text as the model receives it when it is invoked: the body read fresh
// from its file, with the arguments put in. `$ARGUMENTS` is everything after the name; `$1` ... `$9`
// are its words (quotes group words). Text without `$ARGUMENTS` gets the arguments appended, so
// what the user or model passed is never silently dropped.
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

export function substituteArguments(body: string, args: string): string {
  const trimmed = args.trim();
  const words = argumentWords(trimmed);
  let used = false;
  const text = body.replace(/\$(ARGUMENTS|[1-9])\b/g, (_whole, which: string) => {
    used = true;
    return which === "ARGUMENTS" ? trimmed : (words[Number(which) - 1] ?? "");
  });
  if (used || trimmed === "") return text;
  return `${text.replace(/\s+$/, "")}\n\nARGUMENTS: ${trimmed}`;
}

/** The body of a skill or command file (frontmatter removed), read now. */
export async function readInstructions(file: string): Promise<string> {
  return (await parseFrontmatter(await readFile(file, "utf8"))).body;
}

/** A skill's text for the conversation: where its resources are, then its instructions. */
export async function skillPrompt(skill: SkillDefinition, args: string): Promise<string> {
  const body = substituteArguments(await readInstructions(skill.file), args);
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
    return { kind: "command", command, prompt: substituteArguments(await readInstructions(command.file), args).trim() };
  }
  const skill = findSkill(catalog, name);
  if (skill) return { kind: "skill", skill, prompt: await skillPrompt(skill, args) };
  return undefined;
}
