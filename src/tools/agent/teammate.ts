// The Agent tool's teammate mode (team_name + name, first in the reference's order): a child that
// joins the lead's team and keeps running between turns (SubagentHost.teams), sharing the team's
// task list and talking through SendMessage. Only a team's lead starts its teammates, and a
// teammate never starts agents of its own.
import { existsSync } from "node:fs";
import { readTeamFile } from "../../session/team-files.js";
import { TEAM_LEAD_NAME, TEAM_NAME_PATTERN, type TeammateWorktree } from "../../tool/team.js";
import type { TeammateRequest, ToolUseContext, ValidationResult } from "../../tool/types.js";
import { hasWork, worktreeChanges } from "../worktree-shared/git-worktree.js";
import { dropWorktree, makeWorktree } from "../worktree-shared/hooked-worktree.js";
import { confineToWorktree } from "./isolation.js";
import type { AgentInput } from "./schema.js";

/** Why this call cannot start a teammate, or undefined when it can. */
export function teammateProblem(input: AgentInput, context: ToolUseContext): ValidationResult | undefined {
  const refuse = (message: string, errorCode: number): ValidationResult => ({ result: false, message, errorCode });
  if (input.name === undefined) {
    return refuse("A teammate needs a name: give name beside team_name (or omit team_name for a plain subagent).", 9);
  }
  const team = context.getAppState().team;
  if (!team?.isLead || context.agentId !== undefined) {
    return refuse(
      team
        ? "Only the team lead starts teammates."
        : `You lead no team "${input.team_name}": create it with TeamCreate first.`,
      10,
    );
  }
  if (team.teamName !== input.team_name) {
    return refuse(`You lead the team "${team.teamName}", not "${input.team_name}".`, 10);
  }
  if (!TEAM_NAME_PATTERN.test(input.name) || input.name === TEAM_LEAD_NAME) {
    return refuse(
      `"${input.name}" cannot be a teammate's name: use 1-64 letters, digits, - and _ (and not "${TEAM_LEAD_NAME}").`,
      11,
    );
  }
  const running = context.options.subagents?.teams?.members(team.teamName) ?? [];
  if (running.some((member) => member.name === input.name && member.state !== "stopped")) {
    return refuse(`A teammate named "${input.name}" is already running; pick another name or message it.`, 12);
  }
  if (!readTeamFile(team.dir)) return refuse(`The team "${team.teamName}" no longer exists.`, 10);
  if (input.isolation === "remote") {
    return refuse(
      'Teammates run beside the lead: isolation "remote" is not available for them. Omit it, or use "worktree".',
      13,
    );
  }
  return undefined;
}

/**
 * Isolation "worktree" for a teammate: its own checkout on a branch of its own, where its cwd
 * points for as long as it runs (and when taken up again). When its loop ends the worktree is
 * removed if it changed nothing, else kept for the lead to look at or merge.
 */
export async function isolateTeammate(request: TeammateRequest, context: ToolUseContext): Promise<void> {
  const from = request.cwd ?? context.getAppState().bashCwd ?? context.options.cwd;
  const worktree = await makeWorktree(context, from, teammateWorktreeName(request.name, request.agentId));
  confineToWorktree(request, worktree, context);
  request.worktree = worktree;
  request.onEnd = () => releaseTeammateWorktree(worktree, context);
}

/**
 * The worktree's name: the teammate's name (cut to fit: a worktree name has at most 64 characters,
 * a teammate's up to 64 of its own) and the end of its agent id, which keeps two apart.
 */
export function teammateWorktreeName(name: string, agentId: string): string {
  return `teammate-${name.slice(0, 40)}-${agentId.slice(-8)}`;
}

/** A teammate taken up again goes on in its worktree, which must still be there. */
export function returnToWorktree(request: TeammateRequest, worktree: TeammateWorktree, context: ToolUseContext): void {
  if (!existsSync(worktree.path)) {
    throw new Error(`its worktree ${worktree.path} is gone, so it cannot go on where it worked`);
  }
  confineToWorktree(request, worktree, context);
  request.worktree = worktree;
  request.onEnd = () => releaseTeammateWorktree(worktree, context);
}

async function releaseTeammateWorktree(worktree: TeammateWorktree, context: ToolUseContext): Promise<void> {
  if (!existsSync(worktree.path)) return;
  const changes = await worktreeChanges(worktree);
  if (!hasWork(changes)) await dropWorktree(context, worktree);
}

/** The teammate's request: the subagent request made for it, with its name and team. */
export function teammateRequest(
  base: Omit<TeammateRequest, "name" | "team">,
  name: string,
  context: ToolUseContext,
): TeammateRequest {
  const lead = context.getAppState().team;
  if (!lead) throw new Error("You lead no team.");
  return {
    ...base,
    name,
    // Detached from the lead's turn: it runs on after the call returns.
    background: true,
    team: { teamName: lead.teamName, memberName: name, isLead: false, dir: lead.dir },
  };
}
