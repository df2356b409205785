// Delivery: before each model request of a team member, the messages waiting in its mailbox join
// its conversation as one user message (the `teammate_mailbox` attachment, brought by SendMessage,
// which every member has). What a message changes is applied here, as it is delivered: the lead's
// approval of a teammate's plan takes the teammate out of plan mode.
import { userText } from "../../messages/types.js";
import { leavePlanMode, modeAfterPlan } from "../../permissions/settings/index.js";
import { takeUnread } from "../../session/mailbox.js";
import { TEAM_LEAD_NAME, type TeamMessage } from "../../tool/team.js";
import type { AttachmentSource, ToolUseContext } from "../../tool/types.js";
import { renderTeamMessage } from "./messages.js";

/** The note the teammate reads under the lead's answer to its plan, once applied. */
function applyPlanAnswer(context: ToolUseContext, message: TeamMessage): string | undefined {
  const answer = message.structured;
  if (answer?.type !== "plan_approval_response" || message.from !== TEAM_LEAD_NAME) return undefined;
  if (context.channels.planApproval.takeIf((waiting) => waiting === answer.request_id) === undefined) {
    return `(This answers plan request ${answer.request_id}, which is not the one waiting; nothing changed.)`;
  }
  if (!answer.approve) {
    return "(Your plan was not approved: you are still in plan mode. Revise the plan and call ExitPlanMode again.)";
  }
  const next = modeAfterPlan(context.getAppState());
  context.setAppState((prev) => leavePlanMode(prev, next));
  return `(Your plan was approved: plan mode is off, the permission mode is now ${next}. Carry it out.)`;
}

export const teamMailboxSource: AttachmentSource = {
  kind: "teammate_mailbox",
  collect({ context }) {
    const team = context.getAppState().team;
    if (!team) return undefined;
    const messages = takeUnread(team.dir, team.memberName);
    if (messages.length === 0) return undefined;
    const parts = messages.map((message) => {
      const note = applyPlanAnswer(context, message);
      return note ? `${renderTeamMessage(message)}\n${note}` : renderTeamMessage(message);
    });
    return [{ message: userText(parts.join("\n\n")) }];
  },
};
