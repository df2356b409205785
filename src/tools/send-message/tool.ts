// SendMessage: a message to another member of the agent's team, put in the recipient's mailbox
// (src/session/mailbox.ts) and delivered at its next turn (../team-shared/delivery.ts). Plain
// text needs a summary; the structured messages are the reference's: a shutdown request (lead to
// teammate), its response (teammate to lead; approving ends the teammate after this turn), and
// the answer to a teammate's plan (lead to teammate). Messages to other sessions (`uds:`,
// `bridge:`) are refused: Warden has no channel between sessions.
import { deliver } from "../../session/mailbox.js";
import { readTeamFile, type TeamMemberRecord } from "../../session/team-files.js";
import { buildTool } from "../../tool/build-tool.js";
import { type StructuredTeamMessage, TEAM_LEAD_NAME } from "../../tool/team.js";
import type { CanUseTool, ToolUseContext } from "../../tool/types.js";
import { teamMailboxSource } from "../team-shared/delivery.js";
import { newRequestId, newTeamMessage } from "../team-shared/messages.js";
import { SEND_MESSAGE_PROMPT, SEND_MESSAGE_TOOL_NAME } from "./prompt.js";
import { type SendMessageInput, sendMessageInputSchema } from "./schema.js";

export interface SendMessageOutput {
  recipients: string[];
  /** Recipients whose loop is not running: the message waits in their mailbox. */
  notRunning: string[];
  kind: "message" | StructuredTeamMessage["type"];
  requestId?: string;
  /** A shutdown this teammate approved: it stops after this turn. */
  shuttingDown?: boolean;
  /** Teammates of an earlier process of this session, started again from their transcripts for this message. */
  resumed?: string[];
  /** Why a teammate could not be taken up again. */
  problems?: string[];
}

/**
 * The lead's message to teammates whose session ended (a resumed lead): each that can be is taken
 * up again from its sidechain transcript, and reads the message at its first turn.
 */
async function takeUpAgain(
  members: TeamMemberRecord[],
  context: ToolUseContext,
  canUseTool: CanUseTool,
): Promise<{ resumed: string[]; problems: string[] }> {
  const resumed: string[] = [];
  const problems: string[] = [];
  if (members.length === 0 || !context.getAppState().team?.isLead) return { resumed, problems };
  const { canResumeTeammate, resumeTeammate } = await import("../agent/resume-teammate.js");
  for (const member of members) {
    if (!canResumeTeammate(member, context)) continue;
    try {
      await resumeTeammate(member, context, canUseTool);
      resumed.push(member.name);
    } catch (error) {
      problems.push(`${member.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { resumed, problems };
}

/** Who may send which structured message to whom. */
function structuredProblem(input: SendMessageInput, isLead: boolean): string | undefined {
  if (typeof input.message === "string") return undefined;
  const toLead = input.to === TEAM_LEAD_NAME;
  switch (input.message.type) {
    case "shutdown_request":
    case "plan_approval_response":
      return isLead && !toLead ? undefined : `Only the team lead sends ${input.message.type}, to a teammate.`;
    case "shutdown_response":
      return !isLead && toLead ? undefined : "Only a teammate sends shutdown_response, to the team lead.";
  }
}

export const SendMessageTool = buildTool<SendMessageInput, SendMessageOutput>({
  name: SEND_MESSAGE_TOOL_NAME,
  searchHint: "message teammate team lead broadcast shutdown",
  shouldDefer: true,
  // A teammate talks with its team, plain subagents have no team.
  subagentAccess: "teammates",
  attachments: [teamMailboxSource],
  maxResultSizeChars: 2_000,
  inputSchema: sendMessageInputSchema,
  prompt: async () => SEND_MESSAGE_PROMPT,
  description: async (input) => `Message ${input?.to ?? "a teammate"}`,
  // It writes a mailbox in the session's own folder, nothing of the project (a teammate in plan
  // mode must still be able to send its plan's questions).
  isReadOnly: () => true,
  autoModeSafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  toAutoClassifierInput: (input) =>
    `to ${input.to}: ${typeof input.message === "string" ? (input.summary ?? "") : input.message.type}`,

  async validateInput(input, context) {
    const team = context.getAppState().team;
    if (!team) {
      return {
        result: false,
        message: "You are not in a team, so there is nobody to message. Create one with TeamCreate first.",
        errorCode: 1,
      };
    }
    if (/^(uds|bridge):/.test(input.to)) {
      return {
        result: false,
        message: `Messages to other sessions ("${input.to}") are not available: Warden has no channel between sessions. Message a member of your team.`,
        errorCode: 2,
      };
    }
    const file = readTeamFile(team.dir);
    if (!file) return { result: false, message: `The team "${team.teamName}" no longer exists.`, errorCode: 3 };
    if (input.to === team.memberName) return { result: false, message: "You cannot message yourself.", errorCode: 4 };
    if (input.to === "*") {
      if (typeof input.message !== "string") {
        return { result: false, message: 'Only plain messages can be broadcast (to "*").', errorCode: 5 };
      }
    } else if (!file.members.some((member) => member.name === input.to)) {
      const names = file.members.map((member) => member.name).filter((name) => name !== team.memberName);
      return {
        result: false,
        message: `There is no member named "${input.to}" in team "${team.teamName}". Members: ${names.join(", ") || "(none besides you)"}.`,
        errorCode: 6,
      };
    }
    if (typeof input.message === "string" && input.summary === undefined) {
      return { result: false, message: "A plain message needs a summary (5-10 words).", errorCode: 7 };
    }
    const problem = structuredProblem(input, team.isLead);
    if (problem) return { result: false, message: problem, errorCode: 8 };
    return { result: true };
  },

  async call(input, context, canUseTool) {
    const team = context.getAppState().team;
    const file = team ? readTeamFile(team.dir) : undefined;
    if (!team || !file) throw new Error("You are not in a team any more.");
    const recipients =
      input.to === "*" ? file.members.map((m) => m.name).filter((name) => name !== team.memberName) : [input.to];
    let content: string | StructuredTeamMessage = input.message as string;
    let requestId: string | undefined;
    if (typeof input.message !== "string") {
      const structured = input.message;
      if (structured.type === "shutdown_request") {
        requestId = newRequestId("shutdown");
        content = {
          type: "shutdown_request",
          request_id: requestId,
          ...(structured.reason !== undefined ? { reason: structured.reason } : {}),
        };
      } else {
        content = structured;
        requestId = structured.request_id;
      }
    }
    for (const to of recipients) deliver(team.dir, to, newTeamMessage(team.memberName, content, input.summary));
    const inactive = file.members.filter((m) => recipients.includes(m.name) && m.active === false);
    const taken = await takeUpAgain(inactive, context, canUseTool);
    const output: SendMessageOutput = {
      recipients,
      notRunning: inactive.map((m) => m.name).filter((name) => !taken.resumed.includes(name)),
      kind: typeof content === "string" ? "message" : content.type,
    };
    if (taken.resumed.length) output.resumed = taken.resumed;
    if (taken.problems.length) output.problems = taken.problems;
    if (requestId !== undefined) output.requestId = requestId;
    if (typeof content !== "string" && content.type === "shutdown_response" && content.approve) {
      context.setAppState((prev) => ({ ...prev, teamShutdownApproved: true }));
      output.shuttingDown = true;
    }
    return { data: output };
  },

  mapToolResult(output, toolUseId) {
    const to = output.recipients.join(", ") || "nobody (you are the only member)";
    const lines = [output.kind === "message" ? `Message sent to ${to}.` : `${output.kind} sent to ${to}.`];
    if (output.kind === "shutdown_request")
      lines.push(`Request id ${output.requestId}: the teammate answers with shutdown_response.`);
    if (output.shuttingDown) lines.push("You approved the shutdown: your work ends after this turn.");
    if (output.resumed?.length)
      lines.push(`Taken up again from their transcripts (their session had ended): ${output.resumed.join(", ")}.`);
    for (const problem of output.problems ?? []) lines.push(`Could not take up again ${problem}`);
    if (output.notRunning.length)
      lines.push(`Not running now (the message waits in their mailbox): ${output.notRunning.join(", ")}.`);
    return { type: "tool_result", tool_use_id: toolUseId, content: lines.join("\n") };
  },
});
