// What an agent's frontmatter adds to its system prompt besides its body: the skills it preloads
// (`skills: [name, ...]`, each skill's whole text, as if it had invoked them) and its memory
// (`memory: user | project | local`: a folder of its own whose MEMORY.md it reads at start and may
// keep up to date). The session's preloader (src/tools/skill/preload.ts) runs each skill's
// `!`cmd`` lines in the agent's context first; a session without one gives the text as written.
// Either way the agent is not granted a skill's `allowed-tools`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { userHome } from "../../config/paths.js";
import type { AgentDefinition } from "../../tool/agents.js";

/** How much of MEMORY.md the agent starts with (Claude Code reads its first 200 lines). */
const MEMORY_LINES = 200;

/** The agent's memory folder for its scope. */
export function agentMemoryDir(definition: AgentDefinition, cwd: string): string | undefined {
  switch (definition.memory) {
    case "user":
      return join(userHome(), ".claude", "agent-memory", definition.agentType);
    case "project":
      return join(cwd, ".claude", "agent-memory", definition.agentType);
    case "local":
      return join(cwd, ".claude", "agent-memory-local", definition.agentType);
    default:
      return undefined;
  }
}

function memorySection(definition: AgentDefinition, cwd: string): string | undefined {
  const dir = agentMemoryDir(definition, cwd);
  if (!dir) return undefined;
  const file = join(dir, "MEMORY.md");
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
  const shown = lines.slice(0, MEMORY_LINES).join("\n").trim();
  const cut = lines.length > MEMORY_LINES ? `\n[MEMORY.md is longer; read the rest from ${file}]` : "";
  return [
    `# Your memory\nYou keep notes across runs in ${dir}. Read them when they help; before you finish, add what you learned that a later run should know to ${file} (short, organised by topic; other files in the folder for details).`,
    shown ? `Contents of ${file}:\n\n${shown}${cut}` : `${file} is empty so far.`,
  ].join("\n\n");
}

async function skillsSection(
  definition: AgentDefinition,
  cwd: string,
  preload: ((names: readonly string[]) => Promise<string | undefined>) | undefined,
): Promise<string | undefined> {
  if (!definition.skills?.length) return undefined;
  if (preload) return preload(definition.skills);
  const { discoverSkills } = await import("../../config/skills/discover.js");
  const { skillPrompt } = await import("../../config/skills/expand.js");
  const { findSkill } = await import("../../config/skills/types.js");
  const catalog = await discoverSkills({ cwd, projectTrusted: false });
  const parts: string[] = [];
  for (const name of definition.skills) {
    const skill = findSkill(catalog, name);
    parts.push(
      skill ? `## ${name}\n${await skillPrompt(skill, "")}` : `## ${name}\n(No skill of this name was found.)`,
    );
  }
  return `# Skills\nThese skills are loaded for you; follow them where they apply.\n\n${parts.join("\n\n")}`;
}

/** The sections to add after the agent's own prompt (undefined when its frontmatter asks for none). */
export async function agentPromptExtras(
  definition: AgentDefinition,
  cwd: string,
  preload?: (names: readonly string[]) => Promise<string | undefined>,
): Promise<string | undefined> {
  const sections = [await skillsSection(definition, cwd, preload), memorySection(definition, cwd)].filter(
    (s): s is string => s !== undefined,
  );
  return sections.length > 0 ? sections.join("\n\n") : undefined;
}
