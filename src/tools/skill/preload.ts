// The skills an agent's frontmatter preloads (`skills: [name, ...]`), run as a person's `/skill`
// runs: the skill's text, with its `!`cmd`` lines run first (./shell-marks.ts) as Bash calls
// through the agent's own context, so its tools, permission mode, deny and ask rules decide, and
// the skill's own `allowed-tools` hold for those lines only (a project skill's once the folder is
// trusted, as for the Skill tool). The agent does not keep the grants: preloading gives it text.
import { skillPrompt } from "../../config/skills/expand.js";
import { findSkill, grantsHonoured, type SkillCatalog } from "../../config/skills/types.js";
import type { CanUseTool, ToolUseContext } from "../../tool/types.js";
import { grantWhileRunning, parseGrants } from "./grants.js";
import { runCommandShell } from "./shell-marks.js";

export async function preloadAgentSkills(
  catalog: SkillCatalog,
  names: readonly string[],
  context: ToolUseContext,
  canUseTool: CanUseTool,
): Promise<string | undefined> {
  if (names.length === 0) return undefined;
  const parts: string[] = [];
  for (const name of names) {
    const skill = findSkill(catalog, name);
    if (!skill) {
      parts.push(`## ${name}\n(No skill of this name was found.)`);
      continue;
    }
    const grants =
      skill.allowedTools.length > 0 && grantsHonoured(catalog, skill)
        ? parseGrants(skill.allowedTools, context.options.cwd).rules
        : [];
    const withGrants = grants.length > 0 ? grantWhileRunning(grants)(context) : context;
    const text = await runCommandShell(await skillPrompt(skill, ""), {
      contextFor: (abortController) => ({ ...withGrants, abortController }),
      canUseTool,
      signal: context.abortController.signal,
      origin: { commandName: name, invokedBy: "other" },
    });
    parts.push(`## ${name}\n${text}`);
  }
  return `# Skills\nThese skills are loaded for you; follow them where they apply.\n\n${parts.join("\n\n")}`;
}
