// Agent: starts a subagent. This file decides everything about the child (which agent, which
// tools, which model, which permission mode, foreground or background) and hands the decision to
// the session's subagent host (ToolUseContextOptions.subagents), which runs the child's own loop.
// The spawn modes, in the reference's order: teammate (team_name + name), fork (no subagent_type,
// fork enabled), subagent (everything else).
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { type AssistantMessage, textOf } from "../../messages/types.js";
import { backgroundTasks, pushReminder } from "../../tasks/registry.js";
import type { AgentDefinition } from "../../tool/agents.js";
import { buildTool } from "../../tool/build-tool.js";
import type { SubagentHost, SubagentRequest, SubagentResult, ToolUseContext } from "../../tool/types.js";
import { hasWork, worktreeChanges } from "../worktree-shared/git-worktree.js";
import { dropWorktree, makeWorktree } from "../worktree-shared/hooked-worktree.js";
import { FORK_AGENT } from "./built-in.js";
import { findAgent, sessionAgentCatalog } from "./catalog.js";
import { forkMessages, isForkEnabled, isInForkChild } from "./fork.js";
import { confineToWorktree, tellForkOfWorktree } from "./isolation.js";
import { agentListingSource } from "./listing.js";
import { resolveAgentModel } from "./model.js";
import { childPermissionMode } from "./permissions.js";
import { AGENT_PROMPT, AGENT_TOOL_NAME } from "./prompt.js";
import { remoteSubagentHost } from "./remote.js";
import { type AgentInput, agentInputSchema } from "./schema.js";
import { isolateTeammate, teammateProblem, teammateRequest } from "./teammate.js";
import { filterAgentTools } from "./tool-filter.js";

export interface AgentToolOutput {
  /** isolation 'worktree': where the agent worked, and whether the worktree was kept (it changed something). */
  worktree?: { path: string; branch: string; kept: boolean };
  /** async_launched: a background agent was started and runs on (taskId says where); teammate_spawned: it joined the team. */
  status: "completed" | "stopped" | "async_launched" | "teammate_spawned";
  /** teammate_spawned: its name and team, and its own worktree when isolated. */
  teammate?: { name: string; teamName: string; worktree?: { path: string; branch: string } };
  taskId?: string;
  outputPath?: string;
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

/**
 * A fork: the parent's exact pool, model and mode, continuing the request the parent's turn sent
 * (ToolUseContext.renderedRequest) after the assistant message that made this call.
 */
function buildForkRequest(
  input: AgentInput,
  context: ToolUseContext,
  canUseTool: SubagentRequest["canUseTool"],
  parentMessage: AssistantMessage | undefined,
): SubagentRequest {
  if (!context.renderedRequest || !parentMessage) {
    throw new Error("A fork needs the request of the running turn; name a subagent_type instead.");
  }
  const background = input.run_in_background ?? false;
  const request: SubagentRequest = {
    agentId: newAgentId(),
    definition: FORK_AGENT,
    description: input.description,
    prompt: input.prompt,
    tools: [...context.options.tools],
    permissionMode: context.getAppState().toolPermissionContext.mode,
    background,
    canUseTool,
    fork: { messages: forkMessages(parentMessage, input.prompt) },
  };
  if (input.name) request.name = input.name;
  return request;
}

/** Everything about the child, decided once. */
export function buildSubagentRequest(
  input: AgentInput,
  context: ToolUseContext,
  canUseTool: SubagentRequest["canUseTool"],
  teammate = false,
): SubagentRequest {
  const definition = chooseAgent(input, context);
  const background = teammate || (input.run_in_background ?? definition.background ?? false);
  const parentMode = context.getAppState().toolPermissionContext.mode;
  const request: SubagentRequest = {
    agentId: newAgentId(),
    definition,
    description: input.description,
    prompt: input.prompt,
    tools: filterAgentTools(context.options.tools, definition, { background, teammate }),
    permissionMode: childPermissionMode(parentMode, definition.permissionMode, input.mode),
    background,
    canUseTool,
  };
  const modelSpec = resolveAgentModel(definition.model, input.model, context.options.model);
  if (modelSpec) request.modelSpec = modelSpec;
  if (definition.maxTurns) request.maxTurns = definition.maxTurns;
  const cwd = childCwd(input, context);
  if (cwd) request.cwd = cwd;
  if (input.name) request.name = input.name;
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

/** The output of an agent that runs on after the call returns (in the background, or as a teammate). */
function notYetRun(request: SubagentRequest, status: "async_launched" | "teammate_spawned"): AgentToolOutput {
  return {
    status,
    agentId: request.agentId,
    agentType: request.definition.agentType,
    description: request.description,
    text: "",
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    durationMs: 0,
    reason: "running",
  };
}

/** A report this long goes whole into the task's file; the notification carries its start. */
const NOTIFICATION_RESULT_CHARS = 2_000;

/**
 * A background agent: a task of the session's registry (TaskOutput reads it, TaskStop stops it),
 * whose end reaches the model as a task notification before its next request.
 */
export function startInBackground(
  request: SubagentRequest,
  context: ToolUseContext,
  host: SubagentHost,
  finish: (output: AgentToolOutput) => Promise<AgentToolOutput> = async (output) => output,
): AgentToolOutput {
  const registry = backgroundTasks(context);
  const label = `agent ${request.definition.agentType}: ${request.description}`;
  const task = registry.startInProcess({
    command: label,
    description: request.description,
    toolUseId: context.toolUseId,
    subagentType: request.definition.agentType,
    notify: (text) => pushReminder(context, `<task-notification>\n${text}\n</task-notification>`),
    async run(signal, output, task, progress) {
      // Kept in the agent's sidechain: a resumed session lists the task again.
      request.task = { id: task.id, outputPath: task.outputPath };
      request.onStart = (controller) => {
        if (signal.aborted) controller.abort(signal.reason);
        else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
      };
      // What it has done so far, after each of its responses (the SDK's task_progress).
      const done = { totalTokens: 0, toolUses: 0, lastToolName: undefined as string | undefined };
      request.onMessage = (message) => {
        const text = textOf(message);
        if (text.trim() !== "") output(`${text}\n`);
        const usage = message.usage;
        if (usage) done.totalTokens += usage.input_tokens + usage.output_tokens;
        for (const block of message.content) {
          if (block.type !== "tool_use") continue;
          done.toolUses++;
          done.lastToolName = block.name;
        }
        progress({ ...done });
      };
      const result = await host.run(request, context);
      const out = await finish(outputOf(request, result));
      output(`\n${render(out)}\n`);
      const head =
        result.text.length > NOTIFICATION_RESULT_CHARS
          ? `${result.text.slice(0, NOTIFICATION_RESULT_CHARS)}...`
          : result.text;
      return {
        failed: out.status !== "completed",
        summary: `Agent ${result.agentId} (${out.turns} turns) reported:\n${head}\n`,
      };
    },
  });
  return { ...notYetRun(request, "async_launched"), taskId: task.id, outputPath: task.outputPath };
}

function render(output: AgentToolOutput): string {
  if (output.status === "teammate_spawned" && output.teammate) {
    const { name, teamName, worktree } = output.teammate;
    const where = worktree
      ? ` It works in its own git worktree at ${worktree.path} (branch ${worktree.branch}), which is removed when it stops if it changed nothing, and kept otherwise.`
      : "";
    return `Spawned teammate "${name}" (${output.agentType}, agent id ${output.agentId}) in team "${teamName}". It works on its own and shares the team's task list; its messages, and a notice each time it goes idle, reach you at your next turn. Talk to it with SendMessage (to "${name}").${where}`;
  }
  if (output.status === "async_launched") {
    return `Started background agent ${output.agentId} (${output.agentType}) as task ${output.taskId}. You will be told when it ends; TaskOutput (task_id "${output.taskId}") reads its output so far, TaskStop stops it.`;
  }
  const stats = `${output.turns} turn${output.turns === 1 ? "" : "s"}, ${output.inputTokens} input and ${output.outputTokens} output tokens, ${(output.durationMs / 1000).toFixed(1)} s`;
  const head =
    output.status === "completed"
      ? ""
      : `The agent stopped before finishing (${output.reason}${output.error ? `: ${output.error}` : ""}). What it said last:\n\n`;
  const body = output.text.trim() === "" ? "(the agent gave no final text)" : output.text;
  const where = output.worktree
    ? output.worktree.kept
      ? `\nIt worked in the worktree ${output.worktree.path} (branch ${output.worktree.branch}), kept because it changed something.`
      : "\nIt worked in its own worktree, removed since nothing in it changed (no new, changed or ignored files, no commits)."
    : "";
  return `${head}${body}\n\n[agent ${output.agentId} (${output.agentType}): ${stats}]${where}`;
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
  interruptBehavior: () => "cancel",
  // Subagents do not start subagents of their own (a fork keeps the tool but is refused below).
  subagentAccess: "none",
  // Starting an agent grants nothing: the child asks the same authority for each of its calls.
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),

  async validateInput(input, context) {
    if (input.isolation === "remote" && !context.options.fleet) {
      return {
        result: false,
        message:
          'isolation "remote" needs a fleet, and none is configured: set WARDEN_REDIS_URL (or settings fleet.redisUrl) to a Redis that `warden fleet worker` processes serve. Omit it or use "worktree".',
        errorCode: 1,
      };
    }
    // Both guards of a fork: its query source and the boilerplate in its messages.
    if (isInForkChild(context)) {
      return {
        result: false,
        message: "You are a fork: you cannot fork again or start agents. Do the work directly with your tools.",
        errorCode: 8,
      };
    }
    if (context.agentId !== undefined) {
      return { result: false, message: "A subagent cannot start agents of its own.", errorCode: 5 };
    }
    const teamsOffered = context.options.tools.some((tool) => tool.name === "TeamCreate");
    if (input.team_name !== undefined && (!context.options.subagents?.teams || !teamsOffered)) {
      return {
        result: false,
        message:
          "Teams are not enabled in this session (WARDEN_AGENT_TEAMS=1 or settings agentTeams turn them on): omit team_name.",
        errorCode: 2,
      };
    }
    if (input.team_name !== undefined) {
      const problem = teammateProblem(input, context);
      if (problem) return problem;
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

  async call(input, context, canUseTool, parentMessage) {
    const host = context.options.subagents;
    if (!host) throw new Error("Subagents cannot run in this session (no subagent host).");
    // Teammate, then remote, then fork, then subagent: the reference's order.
    if (input.team_name !== undefined && input.name !== undefined) {
      if (!host.teams) throw new Error("Teams are not available in this session.");
      const request = teammateRequest(buildSubagentRequest(input, context, canUseTool, true), input.name, context);
      if (input.isolation === "worktree" || request.definition.isolation === "worktree") {
        await isolateTeammate(request, context);
      }
      try {
        await host.teams.spawn(request, context);
      } catch (error) {
        await request.onEnd?.().catch(() => undefined);
        throw error;
      }
      const { worktree } = request;
      return {
        data: {
          ...notYetRun(request, "teammate_spawned"),
          teammate: {
            name: request.name,
            teamName: request.team.teamName,
            ...(worktree && { worktree: { path: worktree.path, branch: worktree.branch } }),
          },
        },
      };
    }
    if (input.isolation === "remote") {
      // A fleet job: never a fork (the parent's request cannot travel), whatever the definition says.
      const fleet = context.options.fleet;
      if (!fleet) throw new Error('isolation "remote" needs a fleet (WARDEN_REDIS_URL)');
      const request = buildSubagentRequest(input, context, canUseTool);
      const remote = remoteSubagentHost(fleet);
      if (request.background) return { data: startInBackground(request, context, remote) };
      return { data: outputOf(request, await remote.run(request, context)) };
    }
    const request =
      input.subagent_type === undefined && isForkEnabled()
        ? buildForkRequest(input, context, canUseTool, parentMessage)
        : buildSubagentRequest(input, context, canUseTool);
    const isolated = input.isolation === "worktree" || request.definition.isolation === "worktree";
    if (isolated) {
      // Its own checkout and nothing else: request.cwd and its working directories move there, and
      // the worktree outlives the run only if something in it would be lost with it.
      const worktree = await makeWorktree(
        context,
        request.cwd ?? context.getAppState().bashCwd ?? context.options.cwd,
        `agent-${request.agentId}`,
        context.abortController.signal,
      );
      confineToWorktree(request, worktree, context);
      if (request.fork) tellForkOfWorktree(request.fork, worktree);
      const finish = async (output: AgentToolOutput): Promise<AgentToolOutput> => {
        const kept = hasWork(await worktreeChanges(worktree));
        if (!kept) await dropWorktree(context, worktree);
        return { ...output, worktree: { path: worktree.path, branch: worktree.branch, kept } };
      };
      if (request.background) return { data: startInBackground(request, context, host, finish) };
      return { data: await finish(outputOf(request, await host.run(request, context))) };
    }
    if (request.background) return { data: startInBackground(request, context, host) };
    const result = await host.run(request, context);
    return { data: outputOf(request, result) };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: render(output),
    ...(output.status === "stopped" ? { is_error: true } : {}),
  }),
});
