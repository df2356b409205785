// The Agent tool's teammate mode (team_name + name, first in the reference's order): a child that
// joins the lead's team and keeps running between turns (SubagentHost.teams), sharing the team's
// task list and talking through SendMessage. Only a team's lead starts its teammates, and a
// teammate never starts agents of its own.
import { readTeamFile } from "../../session/team-files.js";
import { TEAM_LEAD_NAME, TEAM_NAME_PATTERN } from "../../tool/team.js";
import type { TeammateRequest, ToolUseContext, ValidationResult } from "../../tool/types.js";
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
  if (input.isolation !== undefined) {
    return refuse("Teammates share the lead's working tree; isolation is not available for them yet. Omit it.", 13);
  }
  return undefined;
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
