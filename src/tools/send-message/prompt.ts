// The model-facing text of SendMessage.
export const SEND_MESSAGE_TOOL_NAME = "SendMessage";

export const SEND_MESSAGE_PROMPT = `Sends a message to a member of your team. It reaches them at their next turn (an idle teammate wakes up for it). Your plain text output is not seen by other members: use this tool to tell them anything.

- to: a teammate's name, "team-lead" for the lead, or "*" to send a plain message to every other member (use sparingly).
- message: plain text, with a 5-10 word summary; or one of the structured messages:
  - {"type": "shutdown_request", "reason"?} (lead to a teammate): asks it to finish and stop.
  - {"type": "shutdown_response", "request_id", "approve", "reason"?} (teammate to the lead): approve: true ends your work once this turn's calls are done; false with a reason to keep working.
  - {"type": "plan_approval_response", "request_id", "approve", "feedback"?} (lead to a teammate): answers a plan the teammate sent with ExitPlanMode.
To continue a subagent you started earlier that has ended (an Agent call outside a team): to its agent id or its name, a plain message. It goes on from its own conversation with your message, in the background, and you are told when it ends.
To another Warden session on this machine: to "bridge:<session id>" (or "uds:<socket path>"), a plain message with a summary. It asks your user first, and that session's user decides whether its model reads it; the result says what they decided.
Messages from teammates reach you as <teammate-message teammate_id="..."> in the conversation. When a teammate goes idle you are told; an idle teammate is waiting for a message, not finished with the team.`;
