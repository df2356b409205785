// Fork: a child that continues this very conversation. Its first request is the parent's last one,
// byte for byte (the rendered system prompt, the exact tool pool, the messages as sent), then the
// parent's assistant message whole, a placeholder result for each of its tool calls, and the
// child's directive. Every fork of the same turn shares the same prefix, so the provider's prompt
// cache serves all of them. A fork can never fork again: two guards, the query source (which a
// compaction cannot remove) and the boilerplate tag in the messages (which survives a resume).
import type { AssistantMessage, Message, ToolResultBlock, UserMessage } from "../../messages/types.js";
import { FORK_BOILERPLATE_TAG, FORK_QUERY_SOURCE } from "../../tool/agents.js";
import type { ToolUseContext } from "../../tool/types.js";

/** Fork is on when WARDEN_FORK_SUBAGENT is 1 or true. */
export function isForkEnabled(): boolean {
  const value = process.env.WARDEN_FORK_SUBAGENT?.trim().toLowerCase();
  return value === "1" || value === "true";
}

/** Every tool call of the parent's message gets this same result in every fork: same bytes. */
export const FORK_PLACEHOLDER_RESULT = "Fork started -- processing in background";

const FORK_RULES = `<${FORK_BOILERPLATE_TAG}>
You are a fork of the agent above: you have its whole conversation, and the directive below is your task alone.
- Do not fork or start agents; do not ask questions or wait for replies: work directly with your tools.
- If you change files, commit them (when the project uses git) before you report.
- Your final message is your report, at most 500 words, in exactly this form:
Scope: what you were asked to do
Result: what you found or did
Key files: the files that matter, as path:line
Files changed: the files you changed (or "none")
Issues: problems left open (or "none")
</${FORK_BOILERPLATE_TAG}>`;

/** True when this loop is a fork, by either guard. */
export function isInForkChild(context: Pick<ToolUseContext, "querySource" | "messages">): boolean {
  if (context.querySource === FORK_QUERY_SOURCE) return true;
  const open = `<${FORK_BOILERPLATE_TAG}>`;
  return context.messages.some(
    (message) =>
      message.role === "user" &&
      typeof message.content !== "string" &&
      message.content.some((block) => block.type === "text" && block.text.includes(open)),
  );
}

/** The messages a fork adds after the parent's request: its assistant message, placeholders, directive. */
export function forkMessages(parentMessage: AssistantMessage, directive: string): Message[] {
  const placeholders: ToolResultBlock[] = parentMessage.content
    .filter((block) => block.type === "tool_use")
    .map((block) => ({ type: "tool_result", tool_use_id: block.id, content: FORK_PLACEHOLDER_RESULT }));
  const instruction: UserMessage = {
    role: "user",
    content: [...placeholders, { type: "text", text: `${FORK_RULES}\n\n${directive}` }],
  };
  return [structuredClone(parentMessage), instruction];
}
