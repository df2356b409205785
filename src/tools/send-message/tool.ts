// SendMessage: a message to another member of the agent's team, put in the recipient's mailbox
// (src/session/mailbox.ts) and delivered at its next turn (../team-shared/delivery.ts). Plain
// text needs a summary; the structured messages are the reference's: a shutdown request (lead to
// teammate), its response (teammate to lead; approving ends the teammate after this turn), and
// the answer to a teammate's plan (lead to teammate). A plain message may also go to another
// session on this machine (`uds:<socket>`, `bridge:<session id>`, session/session-socket.ts): it
// asks this session's user first, as the reference says, and the receiving session asks its own
// user before its model sees it (cli/session/inbox.ts).
import { deliver } from "../../session/mailbox.js";
import {
  isCrossSessionRecipient,
  type SessionMessageReply,
  sendSessionMessage,
  signedSessionMessage,
  socketForRecipient,
} from "../../session/session-socket.js";
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
  /** A message to another session: what its user decided (pending: not yet). */
  crossSession?: SessionMessageReply;
  /** A plain subagent that had ended, continued in the background with the message. */
  continued?: { agentId: string; name?: string; taskId: string; outputPath: string; warnings: string[] };
}

/** How long a message to another session waits for that session's user to decide. */
function crossSessionWaitMs(): number {
  const value = Number(process.env.WARDEN_SESSION_MESSAGE_WAIT_MS);
  return Number.isInteger(value) && value > 0 ? value : 60_000;
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

/** Whether `to` names someone of the agent's team (or everyone), who gets the message by mailbox. */
function isTeamRecipient(to: string, context: ToolUseContext): boolean {
  const team = context.getAppState().team;
  const file = team ? readTeamFile(team.dir) : undefined;
  return file !== undefined && (to === "*" || file.members.some((member) => member.name === to));
}

/** A plain subagent of this session that `to` names (loaded only when `to` is nobody of the team). */
async function endedAgentNamed(to: string, context: ToolUseContext) {
  if (isTeamRecipient(to, context)) return undefined;
  const continuing = await import("../agent/continue-agent.js");
  const record = continuing.findEndedAgent(to, context);
  return record ? { record, ...continuing } : undefined;
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

async function toAnotherSession(input: SendMessageInput, context: ToolUseContext): Promise<SendMessageOutput> {
  const target = socketForRecipient(input.to);
  if ("error" in target) throw new Error(target.error);
  const team = context.getAppState().team;
  const from = {
    sessionId: context.options.sessionId,
    cwd: context.getAppState().bashCwd ?? context.options.cwd,
    ...(team ? { name: team.memberName } : {}),
  };
  const reply = await sendSessionMessage(
    target.path,
    signedSessionMessage(from, target.path, input.message as string, input.summary ?? ""),
    crossSessionWaitMs(),
    context.abortController.signal,
  );
  return { recipients: [input.to], notRunning: [], kind: "message", crossSession: reply };
}

function crossSessionText(output: SendMessageOutput): string {
  const reply = output.crossSession;
  const to = output.recipients[0];
  if (reply?.outcome === "delivered") {
    return `Message delivered to ${to}: its user allowed it in, and its model reads it at its next turn.`;
  }
  if (reply?.outcome === "pending") {
    return `Message sent to ${to}; its user has not decided yet whether to let it in (its model reads it only if they do). No answer will follow here.`;
  }
  return `The session ${to} refused the message: ${reply?.reason ?? "no reason given"}`;
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
  // Not a blanket pass in auto mode: a message to another session asks (the classifier then decides).
  autoModeSafe: false,
  // Within the team it only writes mailboxes; another session is another trust domain (its model
  // reads what this one writes), so that always asks unless a rule allows SendMessage.
  checkPermissions: async (input) =>
    isCrossSessionRecipient(input.to)
      ? {
          behavior: "ask",
          message: `Send a message to another session (${input.to}): "${input.summary ?? ""}"`,
        }
      : { behavior: "allow", updatedInput: input },
  toAutoClassifierInput: (input) =>
    `to ${input.to}: ${typeof input.message === "string" ? (input.summary ?? "") : input.message.type}`,

  async validateInput(input, context) {
    if (isCrossSessionRecipient(input.to)) {
      const target = socketForRecipient(input.to);
      if ("error" in target) return { result: false, message: target.error, errorCode: 2 };
      if (typeof input.message !== "string" || input.summary === undefined) {
        return {
          result: false,
          message: "Only a plain message with a summary can go to another session.",
          errorCode: 2,
        };
      }
      return { result: true };
    }
    const agent = await endedAgentNamed(input.to, context);
    if (agent) {
      if (typeof input.message !== "string") {
        return { result: false, message: "Only a plain message continues an agent.", errorCode: 9 };
      }
      const problem = agent.continueProblem(agent.record, context);
      return problem ? { result: false, message: problem, errorCode: 9 } : { result: true };
    }
    const team = context.getAppState().team;
    if (!team) {
      return {
        result: false,
        message: `You are not in a team and started no subagent named "${input.to}", so there is nobody to message. Name a subagent by its agent id or name, or create a team with TeamCreate first.`,
        errorCode: 1,
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
    if (isCrossSessionRecipient(input.to)) return { data: await toAnotherSession(input, context) };
    const agent = await endedAgentNamed(input.to, context);
    if (agent) {
      const started = agent.continueAgent(agent.record, input.message as string, context, canUseTool);
      const continued: NonNullable<SendMessageOutput["continued"]> = {
        agentId: started.agentId,
        taskId: started.taskId as string,
        outputPath: started.outputPath as string,
        warnings: started.warnings,
      };
      if (agent.record.name !== undefined) continued.name = agent.record.name;
      return { data: { recipients: [input.to], notRunning: [], kind: "message", continued } };
    }
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
      context.channels.shutdownApproved.raise();
      output.shuttingDown = true;
    }
    return { data: output };
  },

  mapToolResult(output, toolUseId) {
    if (output.continued) {
      const { agentId, name, taskId, warnings } = output.continued;
      const who = name ? `${name} (${agentId})` : agentId;
      const lines = [
        `Agent ${who} had ended; it goes on from its transcript with your message, in the background as task ${taskId}. You will be told when it ends; TaskOutput (task_id "${taskId}") reads its output so far, TaskStop stops it.`,
        ...warnings.map((warning) => `(Its transcript: ${warning})`),
      ];
      return { type: "tool_result", tool_use_id: toolUseId, content: lines.join("\n") };
    }
    if (output.crossSession) {
      return { type: "tool_result", tool_use_id: toolUseId, content: crossSessionText(output) };
    }
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
