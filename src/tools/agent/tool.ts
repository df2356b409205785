// Agent: starts a subagent. This file decides everything about the child (which agent, which
// tools, which model, which permission mode, foreground or background) and hands the decision to
// the session's subagent host (ToolUseContextOptions.subagents), which runs the child's own loop.
// The spawn modes, in the reference's order: teammate (team_name + name), fork (no subagent_type,
// fork enabled), subagent (everything else).
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { AgentDefinition } from "../../tool/agents.js";
import { buildTool } from "../../tool/build-tool.js";
import type { SubagentRequest, SubagentResult, ToolUseContext } from "../../tool/types.js";
import { findAgent, sessionAgentCatalog } from "./catalog.js";
import { agentListingSource } from "./listing.js";
import { resolveAgentModel } from "./model.js";
import { childPermissionMode } from "./permissions.js";
import { AGENT_PROMPT, AGENT_TOOL_NAME } from "./prompt.js";
import { type AgentInput, agentInputSchema } from "./schema.js";
import { filterAgentTools } from "./tool-filter.js";

export interface AgentToolOutput {
  status: "completed" | "stopped";
  agentId: string;
  agentType: string;
  description: string;
  text: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  /** How the child's loop ended, when not completed. */
  reason: string;
  error?: string;
}

function newAgentId(): string {
  return `a${randomBytes(6).toString("hex")}`;
}

function chooseAgent(input: AgentInput, context: ToolUseContext): AgentDefinition {
  const catalog = sessionAgentCatalog(context);
  const type = input.subagent_type ?? "general-purpose";
  const agent = findAgent(catalog, type);
  if (!agent) {
    throw new Error(
      `Unknown subagent_type "${type}". Available agent types: ${catalog.agents.map((a) => a.agentType).join(", ")}.`,
    );
  }
  return agent;
}

function childCwd(input: AgentInput, context: ToolUseContext): string | undefined {
  if (input.cwd === undefined) return undefined;
  const base = context.getAppState().bashCwd ?? context.options.cwd;
  return isAbsolute(input.cwd) ? input.cwd : resolve(base, input.cwd);
}

/** Everything about the child, decided once. */
export function buildSubagentRequest(
  input: AgentInput,
  context: ToolUseContext,
  canUseTool: SubagentRequest["canUseTool"],
): SubagentRequest {
  const definition = chooseAgent(input, context);
  const background = input.run_in_background ?? definition.background ?? false;
  const parentMode = context.getAppState().toolPermissionContext.mode;
  const request: SubagentRequest = {
    agentId: newAgentId(),
    definition,
    description: input.description,
    prompt: input.prompt,
    tools: filterAgentTools(context.options.tools, definition, { background }),
    permissionMode: childPermissionMode(parentMode, definition.permissionMode, input.mode),
    background,
    canUseTool,
  };
  const modelSpec = resolveAgentModel(definition.model, input.model, context.options.model);
  if (modelSpec) request.modelSpec = modelSpec;
  if (definition.maxTurns) request.maxTurns = definition.maxTurns;
  const cwd = childCwd(input, context);
  if (cwd) request.cwd = cwd;
  return request;
}

function outputOf(request: SubagentRequest, result: SubagentResult): AgentToolOutput {
  const output: AgentToolOutput = {
    status: result.reason === "completed" ? "completed" : "stopped",
    agentId: result.agentId,
    agentType: request.definition.agentType,
    description: request.description,
    text: result.text,
    turns: result.turns,
    inputTokens: result.usage.input_tokens,
    outputTokens: result.usage.output_tokens,
    durationMs: result.durationMs,
    reason: result.reason,
  };
  if (result.error !== undefined) output.error = result.error;
  return output;
}

function render(output: AgentToolOutput): string {
  const stats = `${output.turns} turn${output.turns === 1 ? "" : "s"}, ${output.inputTokens} input and ${output.outputTokens} output tokens, ${(output.durationMs / 1000).toFixed(1)} s`;
  const head =
    output.status === "completed"
      ? ""
      : `The agent stopped before finishing (${output.reason}${output.error ? `: ${output.error}` : ""}). What it said last:\n\n`;
  const body = output.text.trim() === "" ? "(the agent gave no final text)" : output.text;
  return `${head}${body}\n\n[agent ${output.agentId} (${output.agentType}): ${stats}]`;
}

export const AgentTool = buildTool<AgentInput, AgentToolOutput>({
  name: AGENT_TOOL_NAME,
  aliases: ["Task"],
  searchHint: "subagent delegate task explore plan verify",
  maxResultSizeChars: 100_000,
  inputSchema: agentInputSchema,
  attachments: [agentListingSource],
  prompt: async () => AGENT_PROMPT,
  description: async (input) => input?.description ?? "Run a subagent",
  userFacingName: () => AGENT_TOOL_NAME,
  // Several agents may run at once; each of the child's own calls is judged as it comes.
  isConcurrencySafe: () => true,
  isReadOnly: () => false,
  autoModeSafe: true,
  interruptBehavior: () => "cancel",
  // Subagents do not start subagents of their own (a fork keeps the tool but is refused below).
  subagentAccess: "none",
  // Starting an agent grants nothing: the child asks the same authority for each of its calls.
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),

  async validateInput(input, context) {
    if (input.isolation === "remote") {
      return {
        result: false,
        message: 'isolation "remote" is not available: Warden has no remote runners yet. Omit it or use "worktree".',
        errorCode: 1,
      };
    }
    if (input.team_name !== undefined) {
      return {
        result: false,
        message: "Teams are not available in this session yet: omit team_name.",
        errorCode: 2,
      };
    }
    if (input.isolation === "worktree") {
      return {
        result: false,
        message: 'isolation "worktree" is not available yet: omit it.',
        errorCode: 3,
      };
    }
    if (input.run_in_background) {
      return {
        result: false,
        message: "Background agents are not available yet: omit run_in_background.",
        errorCode: 4,
      };
    }
    if (context.agentId !== undefined) {
      return { result: false, message: "A subagent cannot start agents of its own.", errorCode: 5 };
    }
    const catalog = sessionAgentCatalog(context);
    if (input.subagent_type !== undefined && !findAgent(catalog, input.subagent_type)) {
      return {
        result: false,
        message: `Unknown subagent_type "${input.subagent_type}". Available agent types: ${catalog.agents.map((a) => a.agentType).join(", ")}.`,
        errorCode: 6,
      };
    }
    const cwd = childCwd(input, context);
    if (cwd !== undefined) {
      let isDir = false;
      try {
        isDir = statSync(cwd).isDirectory();
      } catch {}
      if (!isDir) return { result: false, message: `cwd ${cwd} is not a directory.`, errorCode: 7 };
    }
    return { result: true };
  },

  async call(input, context, canUseTool) {
    const host = context.options.subagents;
    if (!host) throw new Error("Subagents cannot run in this session (no subagent host).");
    const request = buildSubagentRequest(input, context, canUseTool);
    const result = await host.run(request, context);
    return { data: outputOf(request, result) };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: render(output),
    ...(output.status === "completed" ? {} : { is_error: true }),
  }),
});
