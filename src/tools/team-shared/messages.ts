// Messages between team members: how one is made, and how the recipient's model reads it (as a
// user message of its own, `<teammate-message>`, not a system reminder: it comes from a peer).
import { randomBytes } from "node:crypto";
import { displayLine, displayText } from "../../session/display-text.js";
import type { StructuredTeamMessage, TeamMessage } from "../../tool/team.js";

export function newRequestId(kind: "shutdown" | "plan"): string {
  return `${kind}-${randomBytes(4).toString("hex")}`;
}

export function newTeamMessage(
  from: string,
  content: string | StructuredTeamMessage,
  summary?: string,
  now: Date = new Date(),
): TeamMessage {
  const message: TeamMessage = {
    id: randomBytes(6).toString("hex"),
    // A teammate's words reach its lead's prompt and UI: no escape sequences or control characters.
    from: displayLine(from),
    text: typeof content === "string" ? displayText(content) : JSON.stringify(content),
    timestamp: now.toISOString(),
    read: false,
  };
  if (typeof content !== "string") message.structured = content;
  if (summary !== undefined) message.summary = displayLine(summary);
  return message;
}

const attribute = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** `<teammate-message teammate_id="alice" summary="...">text</teammate-message>` */
export function renderTeamMessage(message: TeamMessage): string {
  const summary = message.summary !== undefined ? ` summary="${attribute(message.summary)}"` : "";
  return `<teammate-message teammate_id="${attribute(message.from)}"${summary}>\n${message.text}\n</teammate-message>`;
}
