// Skills (`<folder>/skills/<name>/SKILL.md`) and slash commands (`<folder>/commands/<name>.md`):
// found at session start (discover.ts), their text read when invoked (expand.ts). The Skill tool
// (src/tools/skill/) offers them to the model; the CLI expands `/name args` prompts.
export { type DiscoverSkillsOptions, discoverSkills, MAX_DESCRIPTION_CHARS } from "./discover.js";
export {
  argumentWords,
  expandSlashPrompt,
  readInstructions,
  type SlashExpansion,
  skillPrompt,
  substituteArguments,
  substituteWords,
} from "./expand.js";
export {
  allowedToolsOf,
  grantsKey,
  type MarkdownWithFrontmatter,
  parseFrontmatter,
  parseFrontmatterSync,
  splitFrontmatter,
} from "./frontmatter.js";
export { projectSkillFiles, type SkillFileKind, type SkillRoot, skillRoots } from "./locations.js";
export {
  catalogTrust,
  findCommand,
  findSkill,
  grantsHonoured,
  type SkillCatalog,
  type SkillContext,
  type SkillDefinition,
  type SkillLevel,
  type SlashCommand,
} from "./types.js";
