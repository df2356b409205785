// What a skill and a slash command are, as discovered on disk (./discover.ts). Only what the model
// is told up front (name, description) and what decides how a skill runs is kept here; a skill's
// body is read again from its file when it is invoked, so an edit is seen and nothing large sits
// in memory.
import { grantIdentity, grantsKey } from "./frontmatter.js";

/** One active plugin's skill and command folders (src/config/plugins/components.ts finds them). */
export interface PluginSkillFolders {
  plugin: string;
  skills: string[];
  commands: string[];
}

/** Where a skill or command was found: the user's own folders, or the project's (which trust governs). */
export type SkillLevel = "user" | "project";

/** How an invoked skill runs: its text joins the conversation, or a subagent runs it apart. */
export type SkillContext = "inline" | "fork";

export interface SkillDefinition {
  /** What the model passes as `skill` and a user types after `/`. */
  name: string;
  description: string;
  level: SkillLevel;
  /** The SKILL.md file. */
  file: string;
  /** The skill's folder: files beside SKILL.md are its resources, read on demand. */
  dir: string;
  /**
   * `allowed-tools` as written, one entry per list item (a comma- or space-separated string stays
   * one entry; the permission layer splits it into rules).
   */
  allowedTools: string[];
  /** `model`, when the skill asks for one (honoured for forked skills). */
  model?: string;
  context: SkillContext;
  /** `agent`: the subagent type a forked skill runs as (default general-purpose). */
  agent?: string;
  /** `argument-hint`: how the arguments look (`<file> [--fix]`). */
  argumentHint?: string;
  /** `arguments`: names for the words of the arguments, in order, each usable as `$name`. */
  argumentNames?: string[];
  /** `disable-model-invocation: true`: only a user may invoke it (as `/name`); the model is not told of it. */
  disableModelInvocation: boolean;
  /** Every frontmatter key the file sets, as written: the permission check allows only safe ones unasked. */
  frontmatterKeys: string[];
  /** The plugin that brought it (its name is then `plugin:name`). */
  plugin?: string;
}

/** A Markdown file of `.warden/commands/` or `.claude/commands/`: a prompt a user runs as `/name args`. */
export interface SlashCommand {
  name: string;
  description?: string;
  level: SkillLevel;
  file: string;
  allowedTools: string[];
  argumentHint?: string;
  /** `arguments`: names for the words of the arguments, in order, each usable as `$name`. */
  argumentNames?: string[];
  model?: string;
  /** The plugin that brought it (its name is then `plugin:name`). */
  plugin?: string;
}

/** Everything discovered for one session. */
export interface SkillCatalog {
  /** Skills by precedence: a user's skill shadows a project skill of the same name. */
  skills: SkillDefinition[];
  commands: SlashCommand[];
  /**
   * Whether the project's own skills and commands may widen what the session may do (their
   * `allowed-tools`): the folder is trusted, or its trust is not needed (src/config/trust/).
   */
  projectTrusted: boolean;
  /**
   * When set, a project file's grants hold only if its path is here with the same grants (keyed
   * as frontmatter.ts grantsKey): the grants workspace trust was decided on (WorkspaceTrust
   * .skillGrants). A file written or changed since grants nothing.
   */
  trustedGrants?: Readonly<Record<string, string>>;
  /** Files that could not be used, with the reason (reported once, at start). */
  warnings: string[];
  /** The active plugins' folders this catalog was read with (read again with them). */
  pluginFolders?: readonly PluginSkillFolders[];
}

/**
 * The item named `name`, or, for a name without a plugin, the one plugin item whose short name it
 * is (`/review` for `/tools:review`) when exactly one has it. A user's or project's own item of
 * that name (and a built-in command, which discovery keeps out) always wins.
 */
function byName<T extends { name: string }>(items: readonly T[], name: string): T | undefined {
  const exact = items.find((item) => item.name === name);
  if (exact || name.includes(":")) return exact;
  const short = items.filter(
    (item) => item.name.endsWith(`:${name}`) && item.name.indexOf(":") === item.name.length - name.length - 1,
  );
  return short.length === 1 ? short[0] : undefined;
}

export function findSkill(catalog: SkillCatalog, name: string): SkillDefinition | undefined {
  return byName(catalog.skills, name);
}

export function findCommand(catalog: SkillCatalog, name: string): SlashCommand | undefined {
  return byName(catalog.commands, name);
}

/**
 * Whether this skill's or command's own grants apply: always for the user's; for a project's only
 * when the folder is trusted with exactly these grants of this file.
 */
export function grantsHonoured(
  catalog: SkillCatalog,
  item: { level: SkillLevel; file: string; allowedTools: readonly string[] },
): boolean {
  if (item.level === "user") return true;
  if (!catalog.projectTrusted) return false;
  return (
    catalog.trustedGrants === undefined ||
    catalog.trustedGrants[grantIdentity(item.file)] === grantsKey(item.allowedTools)
  );
}

/** The trust a catalog was discovered with, for discovering it again (same trust, same grants). */
export function catalogTrust(
  catalog: SkillCatalog,
): Pick<SkillCatalog, "projectTrusted" | "trustedGrants" | "pluginFolders"> {
  return {
    projectTrusted: catalog.projectTrusted,
    ...(catalog.trustedGrants !== undefined && { trustedGrants: catalog.trustedGrants }),
    ...(catalog.pluginFolders !== undefined && { pluginFolders: catalog.pluginFolders }),
  };
}
