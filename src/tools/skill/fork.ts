// A `context: fork` skill runs apart: a subagent (its frontmatter's `agent`, general-purpose by
// default) gets the skill's text as its task and works in its own conversation; the caller reads
// only its final report. The child is made exactly as an Agent call would make it (tools filtered
// for its type, a mode never wider than the parent's, the model chosen by the definition, then the
// skill's `model`, then the main loop's), and the skill's `allowed-tools` hold while it runs.
import { randomBytes } from "node:crypto";
import type { SkillDefinition } from "../../config/skills/index.js";
import type { PermissionRule } from "../../tool/permission-types.js";
import type { CanUseTool, SubagentRequest, SubagentResult, ToolUseContext } from "../../tool/types.js";
import { findAgent, sessionAgentCatalog } from "../agent/catalog.js";
import { resolveAgentModel } from "../agent/model.js";
import { childPermissionMode } from "../agent/permissions.js";
import { filterAgentTools } from "../agent/tool-filter.js";
import { grantWhileRunning } from "./grants.js";

export interface ForkedSkillRun {
  agentType: string;
  agentId: string;
  text: string;
  turns: number;
  /** How the child's loop ended, when not completed. */
  reason: string;
  error?: string;
}

/** Why the skill cannot fork in this session, or undefined when it can. */
export function forkUnavailable(skill: SkillDefinition, context: ToolUseContext): string | undefined {
  if (!context.options.subagents) return "this session cannot run subagents";
  const type = skill.agent ?? "general-purpose";
  const catalog = sessionAgentCatalog(context);
  if (!findAgent(catalog, type)) {
    return `its agent type ${JSON.stringify(type)} is unknown (agent types: ${catalog.agents.map((a) => a.agentType).join(", ")})`;
  }
  return undefined;
}

export async function runForkedSkill(
  skill: SkillDefinition,
  prompt: string,
  grants: readonly PermissionRule[],
  context: ToolUseContext,
  canUseTool: CanUseTool,
): Promise<ForkedSkillRun> {
  const host = context.options.subagents;
  const definition = findAgent(sessionAgentCatalog(context), skill.agent ?? "general-purpose");
  if (!host || !definition) throw new Error(`The skill ${skill.name} cannot run as a subagent here.`);
  const request: SubagentRequest = {
    agentId: `a${randomBytes(6).toString("hex")}`,
    definition,
    description: `skill ${skill.name}`,
    prompt,
    tools: filterAgentTools(context.options.tools, definition, { background: false }),
    permissionMode: childPermissionMode(context.getAppState().toolPermissionContext.mode, definition.permissionMode),
    background: false,
    canUseTool,
  };
  const modelSpec = resolveAgentModel(definition.model, skill.model, context.options.model);
  if (modelSpec) request.modelSpec = modelSpec;
  if (definition.maxTurns) request.maxTurns = definition.maxTurns;
  // The child's permissions are read from the context it is started from: the grants ride there.
  const parent = grants.length > 0 ? grantWhileRunning(grants)(context) : context;
  const result: SubagentResult = await host.run(request, parent);
  const run: ForkedSkillRun = {
    agentType: definition.agentType,
    agentId: result.agentId,
    text: result.text,
    turns: result.turns,
    reason: result.reason,
  };
  if (result.error !== undefined) run.error = result.error;
  return run;
}
