// The events of agents and the work around them: subagents (SubagentStart, SubagentStop),
// teammates (TeammateIdle), tasks (TaskCreated, TaskCompleted), worktrees (WorktreeCreate,
// WorktreeRemove) and MCP servers' questions (Elicitation, ElicitationResult).
import type { SubagentStopResult } from "../tool/tool-call-hooks.js";
import {
  type ElicitationAnswer,
  type ElicitationQuestion,
  type ElicitationReply,
  elicitationInput,
  foldElicitation,
  resultInput,
} from "./elicitation-hooks.js";
import type { HookDispatcher } from "./hook-dispatch.js";
import { foldContextOutcomes, foldStopOutcomes } from "./hook-folds.js";
import { HOOK_VERIFIER_AGENT } from "./session-hook-models.js";
import { foldWorktreeCreate } from "./worktree-hooks.js";

export async function subagentStart(
  hooks: HookDispatcher,
  agent: { agentId: string; agentType: string },
  signal?: AbortSignal,
): Promise<{ additionalContext: string[]; errors: string[] }> {
  // The agent a hook of type `agent` starts is the hooks' own: it fires no events of its own.
  if (agent.agentType === HOOK_VERIFIER_AGENT) return { additionalContext: [], errors: [] };
  const outcomes = await hooks.run(
    "SubagentStart",
    agent.agentType,
    { agent_id: agent.agentId, agent_type: agent.agentType },
    signal,
  );
  const result = { additionalContext: [] as string[], errors: [] as string[] };
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") result.errors.push(outcome.message);
    else if (outcome.kind === "success" && outcome.json?.hookSpecificOutput?.additionalContext)
      result.additionalContext.push(outcome.json.hookSpecificOutput.additionalContext);
  }
  return result;
}

/** Like Stop, for a subagent: exit 2 or `decision: "block"` sends it back with the reason. */
export async function subagentStop(
  hooks: HookDispatcher,
  agent: { agentId: string; agentType: string; transcriptPath?: string; lastMessage: string },
  stopHookActive: boolean,
  signal?: AbortSignal,
): Promise<SubagentStopResult> {
  if (agent.agentType === HOOK_VERIFIER_AGENT) return { errors: [] };
  const outcomes = await hooks.run(
    "SubagentStop",
    agent.agentType,
    {
      stop_hook_active: stopHookActive,
      agent_id: agent.agentId,
      agent_type: agent.agentType,
      agent_transcript_path: agent.transcriptPath ?? "",
      last_assistant_message: agent.lastMessage,
    },
    signal,
  );
  return foldStopOutcomes(outcomes, "a SubagentStop hook asked to continue");
}

/** A teammate is about to go idle (no matcher): blocking keeps it working, `continue: false` stops it. */
export async function teammateIdle(
  hooks: HookDispatcher,
  teammate: { teamName: string; name: string },
  signal?: AbortSignal,
): Promise<{ continueWith?: string; stop?: string; errors: string[] }> {
  const outcomes = await hooks.run(
    "TeammateIdle",
    undefined,
    { teammate_name: teammate.name, team_name: teammate.teamName },
    signal,
  );
  const stops = outcomes.flatMap((o) =>
    o.kind === "success" && o.json?.continue === false ? [o.json.stopReason ?? "a TeammateIdle hook stopped it"] : [],
  );
  const folded = foldStopOutcomes(outcomes, "a TeammateIdle hook asked to keep working");
  return stops.length > 0 ? { stop: stops.join("\n"), errors: folded.errors } : folded;
}

/** TaskCreated / TaskCompleted: may refuse with a reason the model reads (no matcher). */
export async function taskEvent(
  hooks: HookDispatcher,
  event: "TaskCreated" | "TaskCompleted",
  task: { id: string; subject: string; description: string },
  team: { teamName: string; memberName: string } | undefined,
  signal?: AbortSignal,
): Promise<{ blocked?: string; errors: string[] }> {
  const outcomes = await hooks.run(
    event,
    undefined,
    {
      task_id: task.id,
      task_subject: task.subject,
      task_description: task.description,
      ...(team && { teammate_name: team.memberName, team_name: team.teamName }),
    },
    signal,
  );
  const { errors, blocked } = foldContextOutcomes(outcomes, `a ${event} hook refused`);
  return blocked !== undefined ? { blocked, errors } : { errors };
}

export async function worktreeCreate(
  hooks: HookDispatcher,
  name: string,
  signal?: AbortSignal,
): Promise<{ path?: string; failure?: string }> {
  return foldWorktreeCreate(await hooks.run("WorktreeCreate", undefined, { name }, signal));
}

export async function worktreeRemove(
  hooks: HookDispatcher,
  path: string,
  signal?: AbortSignal,
): Promise<{ errors: string[] }> {
  const outcomes = await hooks.run("WorktreeRemove", undefined, { worktree_path: path }, signal);
  return { errors: outcomes.flatMap((o) => (o.kind === "success" ? [] : [o.message])) };
}

/** An MCP server asks the user (matcher: the server's name); a hook may answer first. */
export async function elicitation(
  hooks: HookDispatcher,
  request: ElicitationQuestion,
  signal?: AbortSignal,
): Promise<ElicitationAnswer> {
  const outcomes = await hooks.run("Elicitation", request.server, elicitationInput(request), signal);
  return foldElicitation(outcomes, "an Elicitation hook declined the request");
}

/** The answer is about to go back to the server (matcher: its name); a hook may change it. */
export async function elicitationResult(
  hooks: HookDispatcher,
  request: ElicitationQuestion,
  result: ElicitationReply,
  signal?: AbortSignal,
): Promise<ElicitationAnswer> {
  const outcomes = await hooks.run("ElicitationResult", request.server, resultInput(request, result), signal);
  return foldElicitation(outcomes, "an ElicitationResult hook blocked the answer");
}
