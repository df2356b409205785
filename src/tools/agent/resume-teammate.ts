// A teammate taken up again: its session ended (the process exited; --resume brings the lead and
// its team back, not the teammates' loops), and the lead messages it. It goes on from its sidechain
// transcript under its old agent id and name, with the tools, model and permission mode its
// definition gives it now; the message waiting in its mailbox reaches it at its first turn. Loaded
// by SendMessage only when a recipient needs taking up again.
import { existsSync } from "node:fs";
import { loadSidechainMessages, readSidechainRecord } from "../../session/sidechains.js";
import type { TeamMemberRecord } from "../../session/team-files.js";
import type { CanUseTool, ToolUseContext } from "../../tool/types.js";
import { returnToWorktree, teammateRequest } from "./teammate.js";
import { buildSubagentRequest } from "./tool.js";

/**
 * Whether the member can be taken up again: it has a sidechain, is not running in this process,
 * and did not end by approving a shutdown (the lead let it go; a new one is spawned instead).
 */
export function canResumeTeammate(member: TeamMemberRecord, context: ToolUseContext): boolean {
  const team = context.getAppState().team;
  const runtime = context.options.subagents?.teams;
  if (!team?.isLead || !runtime || member.transcriptPath === undefined || !existsSync(member.transcriptPath)) {
    return false;
  }
  const running = runtime.members(team.teamName).some((m) => m.name === member.name && m.state !== "stopped");
  if (running) return false;
  const record = readSidechainRecord(member.transcriptPath, member.agentId);
  return record !== undefined && record.result?.reason !== "shutdown";
}

/** Starts the member's loop again from its transcript; returns warnings about lines it skipped. */
export async function resumeTeammate(
  member: TeamMemberRecord,
  context: ToolUseContext,
  canUseTool: CanUseTool,
): Promise<string[]> {
  const runtime = context.options.subagents?.teams;
  const team = context.getAppState().team;
  const path = member.transcriptPath;
  if (!runtime || !team || path === undefined) throw new Error(`${member.name} cannot be taken up again`);
  const record = readSidechainRecord(path, member.agentId);
  const { messages, warnings } = loadSidechainMessages(path);
  if (messages.length === 0) throw new Error(`the transcript of ${member.name} (${path}) holds no conversation`);
  const base = buildSubagentRequest(
    {
      description: record?.description || `teammate ${member.name}`,
      prompt: "(taken up again from its transcript)",
      subagent_type: member.agentType,
      name: member.name,
      team_name: team.teamName,
    },
    context,
    canUseTool,
    true,
  );
  const request = teammateRequest({ ...base, agentId: member.agentId, history: messages }, member.name, context);
  if (member.model !== undefined) request.modelSpec = member.model;
  if (member.worktree) returnToWorktree(request, member.worktree, context);
  await runtime.spawn(request, context);
  return warnings;
}
