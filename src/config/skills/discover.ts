// Finds a session's skills and slash commands:
//   skills    <folder>/skills/<name>/SKILL.md      (files beside SKILL.md are the skill's resources)
//   commands  <folder>/commands/<name>.md
// where <folder> is, in precedence order, ~/.warden, ~/.claude (the user's), then the project's
// .warden and .claude. A name found twice keeps its first: a project cannot replace a skill the
// user installed under the same name. A file that cannot be used is skipped with a warning naming
// it and why; the others still load.
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isBuiltInCommandName } from "./built-in-commands.js";
import { argumentNamesOf } from "./expand.js";
import { allowedToolsOf, parseFrontmatter } from "./frontmatter.js";
import { allSkillRoots, type PluginSkillFolders, type SkillRoot, skillFileOf } from "./locations.js";
import type { SkillCatalog, SkillContext, SkillDefinition, SlashCommand } from "./types.js";

/** Names a model can pass and a user can type after `/`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
/** A description longer than this is cut: the listing the model sees is small on purpose. */
export const MAX_DESCRIPTION_CHARS = 1024;
/** A SKILL.md or command file above this is skipped: it would not fit a conversation anyway. */
export const MAX_SKILL_FILE_BYTES = 512 * 1024;

export interface DiscoverSkillsOptions {
  cwd: string;
  /** The project's own skills may widen permissions (see SkillCatalog.projectTrusted). */
  projectTrusted: boolean;
  /** The grants trust was decided on (SkillCatalog.trustedGrants). */
  trustedGrants?: Readonly<Record<string, string>>;
  /** Active plugins' folders: their items are named `plugin:name`. */
  pluginFolders?: readonly PluginSkillFolders[];
}

/** A plugin's items carry its name first, so two plugins (or the user) can use the same short name. */
function namespaced(root: SkillRoot, name: string): string {
  return root.plugin === undefined ? name : `${root.plugin}:${name}`;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

/**
 * A plugin's path that is one item rather than a folder of them (plugin.json may name a single
 * command file, or one skill's own folder holding SKILL.md): that item's file, else undefined.
 */
async function pluginSingleItem(root: SkillRoot, kind: "skills" | "commands"): Promise<string[] | undefined> {
  if (root.plugin === undefined) return undefined;
  const file = kind === "commands" ? root.dir : join(root.dir, "SKILL.md");
  if (kind === "commands" && !file.endsWith(".md")) return undefined;
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() ? [file] : undefined;
}

async function readSmallFile(file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  if (info.size > MAX_SKILL_FILE_BYTES) throw new Error(`it is larger than ${MAX_SKILL_FILE_BYTES / 1024} KB`);
  return readFile(file, "utf8");
}

function optionalString(attributes: Record<string, unknown>, key: string): string | undefined {
  const value = attributes[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error(`\`${key}\` must be a string`);
  return value.trim() || undefined;
}

function contextOf(attributes: Record<string, unknown>): SkillContext {
  const value = optionalString(attributes, "context");
  if (value === undefined || value === "inline") return "inline";
  if (value === "fork") return "fork";
  throw new Error(`\`context\` must be fork or inline, not ${JSON.stringify(value)}`);
}

/** The first paragraph of the body, for a file without a `description`. */
function firstParagraph(body: string): string | undefined {
  const paragraph = body
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/^#+\s*/gm, "").trim())
    .find((p) => p !== "");
  return paragraph?.replace(/\s+/g, " ");
}

function cut(text: string): string {
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : text;
}

/**
 * `argument-hint`, as text. Unquoted, `[project-name]` is a YAML list (["project-name"]); Claude
 * Code shows it as written, so the brackets are put back.
 */
function argumentHintOf(attributes: Record<string, unknown>): string | undefined {
  const value = attributes["argument-hint"];
  if (Array.isArray(value) && value.every((item) => typeof item === "string" || typeof item === "number")) {
    return value.map((item) => `[${item}]`).join(" ") || undefined;
  }
  return optionalString(attributes, "argument-hint");
}

function checkedName(name: string): string {
  if (!NAME.test(name)) {
    throw new Error(`its name ${JSON.stringify(name)} must be letters, digits, '.', '_', ':' or '-' (at most 64)`);
  }
  return name;
}

async function loadSkill(file: string, root: SkillRoot): Promise<SkillDefinition | undefined> {
  const folder = dirname(file);
  const text = await readSmallFile(file);
  if (text === undefined) return undefined;
  const { attributes, body } = await parseFrontmatter(text);
  // A `name` that is a title ("Writing Hookify Rules", as Claude Code's own plugins write) is not a
  // name to type: such a skill is named by its folder, as Claude Code names it.
  const declared = optionalString(attributes, "name");
  const usable = declared !== undefined && NAME.test(namespaced(root, declared)) ? declared : undefined;
  const name = checkedName(namespaced(root, usable ?? basename(folder)));
  const disable = attributes["disable-model-invocation"];
  if (disable !== undefined && typeof disable !== "boolean") {
    throw new Error("`disable-model-invocation` must be true or false");
  }
  const skill: SkillDefinition = {
    name,
    description: cut(optionalString(attributes, "description") ?? firstParagraph(body) ?? "(no description)"),
    level: root.level,
    file,
    dir: folder,
    allowedTools: allowedToolsOf(attributes),
    context: contextOf(attributes),
    disableModelInvocation: disable === true,
    frontmatterKeys: Object.keys(attributes),
  };
  if (root.plugin !== undefined) skill.plugin = root.plugin;
  const model = optionalString(attributes, "model");
  if (model !== undefined) skill.model = model;
  const agent = optionalString(attributes, "agent");
  if (agent !== undefined) skill.agent = agent;
  const hint = argumentHintOf(attributes);
  if (hint !== undefined) skill.argumentHint = hint;
  const names = argumentNamesOf(attributes.arguments);
  if (names !== undefined) skill.argumentNames = names;
  return skill;
}

async function loadCommand(file: string, root: SkillRoot): Promise<SlashCommand | undefined> {
  const text = await readSmallFile(file);
  if (text === undefined) return undefined;
  const { attributes, body } = await parseFrontmatter(text);
  const command: SlashCommand = {
    name: checkedName(namespaced(root, basename(file, ".md"))),
    level: root.level,
    file,
    allowedTools: allowedToolsOf(attributes),
  };
  const description = optionalString(attributes, "description") ?? firstParagraph(body);
  if (description !== undefined) command.description = cut(description);
  const hint = argumentHintOf(attributes);
  if (hint !== undefined) command.argumentHint = hint;
  const names = argumentNamesOf(attributes.arguments);
  if (names !== undefined) command.argumentNames = names;
  const model = optionalString(attributes, "model");
  if (model !== undefined) command.model = model;
  if (root.plugin !== undefined) command.plugin = root.plugin;
  return command;
}

/** Keeps the first of each name; a later one from another real file is reported as shadowed. */
async function addUnique<T extends { name: string; file: string }>(
  into: T[],
  item: T,
  warnings: string[],
  kind: string,
): Promise<void> {
  // A built-in command's name always means the built-in (./built-in-commands.ts).
  if (isBuiltInCommandName(item.name)) {
    warnings.push(
      `${kind} ${item.file} is ignored: /${item.name.toLowerCase()} is a built-in command, which always runs as itself; rename the file to use it`,
    );
    return;
  }
  const earlier = into.find((existing) => existing.name === item.name);
  if (!earlier) {
    into.push(item);
    return;
  }
  const [a, b] = await Promise.all([
    realpath(earlier.file).catch(() => earlier.file),
    realpath(item.file).catch(() => item.file),
  ]);
  if (a !== b) warnings.push(`${kind} ${item.file} is ignored: ${earlier.file} has the same name (${item.name})`);
}

function problem(file: string, error: unknown): string {
  return `${file} is ignored: ${error instanceof Error ? error.message : String(error)}`;
}

/** The session's skills and commands. Never throws for a bad file: it becomes a warning. */
export async function discoverSkills(options: DiscoverSkillsOptions): Promise<SkillCatalog> {
  const warnings: string[] = [];
  const seenRoots = new Set<string>();
  const skills: SkillDefinition[] = [];
  const commands: SlashCommand[] = [];
  // One folder reached twice (cwd is the home folder) is read once, as the user's.
  const unseen = (root: SkillRoot) => {
    if (seenRoots.has(root.dir)) return false;
    seenRoots.add(root.dir);
    return true;
  };
  const filesOf = async (root: SkillRoot, kind: "skills" | "commands") =>
    (await pluginSingleItem(root, kind)) ??
    (await listDir(root.dir)).flatMap((entry) => skillFileOf(root.dir, kind, entry) ?? []);
  for (const root of allSkillRoots(options.cwd, "skills", options.pluginFolders).filter(unseen)) {
    const found = await Promise.all(
      (await filesOf(root, "skills")).map((file) =>
        loadSkill(file, root).catch((error: unknown) => {
          warnings.push(problem(file, error));
          return undefined;
        }),
      ),
    );
    for (const skill of found) if (skill) await addUnique(skills, skill, warnings, "skill");
  }
  for (const root of allSkillRoots(options.cwd, "commands", options.pluginFolders).filter(unseen)) {
    const found = await Promise.all(
      (await filesOf(root, "commands")).map((file) =>
        loadCommand(file, root).catch((error: unknown) => {
          warnings.push(problem(file, error));
          return undefined;
        }),
      ),
    );
    for (const command of found) if (command) await addUnique(commands, command, warnings, "command");
  }
  const catalog: SkillCatalog = { skills, commands, projectTrusted: options.projectTrusted, warnings };
  if (options.trustedGrants !== undefined) catalog.trustedGrants = options.trustedGrants;
  if (options.pluginFolders?.length) catalog.pluginFolders = options.pluginFolders;
  return catalog;
}
