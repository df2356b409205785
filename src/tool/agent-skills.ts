// What a session lends its subagents to preload the skills an agent's frontmatter names
// (`skills: [name, ...]`), implemented in src/tools/skill/preload.ts; the loop only calls it.
import type { CanUseTool, ToolUseContext } from "./types.js";

/**
 * The "Skills" section of the agent's system prompt: each named skill's text, its `!`cmd`` lines
 * run first in the agent's own context (its tools, mode and permission path) with `canUseTool`.
 * Undefined when no name is given.
 */
export type AgentSkillPreloader = (
  names: readonly string[],
  context: ToolUseContext,
  canUseTool: CanUseTool,
) => Promise<string | undefined>;
