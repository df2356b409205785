// Snip: a conversation of very many messages sends only its first message (the task) and the
// newest ones; the oldest in between are removed from the request and replaced by a short note of
// what they held (how many turns, which tools, which files). No model call: it is mechanical and
// costs nothing. The history itself is kept (the transcript, a later compaction's summary).
//
// How many are removed is a step function of the conversation's length: nothing up to
// `snipAfterMessages`, then enough to come back down to `snipKeepMessages`, and the cut stays
// where it is until the conversation has grown by the same amount again. Between two cuts every
// request starts with the same bytes, so the prompt cache keeps working.
import type { Message, ToolUseBlock, UserMessage } from "../messages/types.js";
import { estimateMessageTokens } from "./token-estimate.js";

export interface SnipResult {
  messages: Message[];
  /** Messages removed from between the first and the kept ones (0: nothing snipped). */
  removed: number;
  /** Estimated tokens of the removed messages. */
  removedTokens: number;
}

export const SNIP_NOTE_OPEN = "[Earlier conversation snipped:";

/** Messages to remove for a conversation of `total` messages (a step function, stable between cuts). */
export function snipCount(total: number, after: number, keep: number): number {
  if (after <= 0 || total <= after) return 0;
  const step = Math.max(1, after - keep);
  return Math.floor((total - keep) / step) * step;
}

// The note for one cut, reused while the cut stays (same first message, same count).
const notes = new WeakMap<Message, Map<number, string>>();

/**
 * The messages as sent after snipping (`messages` as they go to the model: alternating, the
 * first a user message). The cut is moved forward to the next assistant message so no tool
 * result loses its call.
 */
export function snipMessages(messages: readonly Message[], after: number, keep: number): SnipResult {
  const count = snipCount(messages.length, after, keep);
  if (count === 0) return { messages: [...messages], removed: 0, removedTokens: 0 };
  let end = 1 + count;
  while (end < messages.length && messages[end]?.role !== "assistant") end++;
  // Always keep the newest exchange, whatever the settings say.
  if (end >= messages.length - 1) return { messages: [...messages], removed: 0, removedTokens: 0 };
  const first = messages[0] as Message;
  const removedMessages = messages.slice(1, end);
  let removedTokens = 0;
  for (const message of removedMessages) removedTokens += estimateMessageTokens(message);
  let byCount = notes.get(first);
  if (!byCount) {
    byCount = new Map();
    notes.set(first, byCount);
  }
  let note = byCount.get(end - 1);
  if (note === undefined) {
    note = snipNote(removedMessages);
    byCount.set(end - 1, note);
  }
  const head: UserMessage =
    first.role === "user"
      ? { role: "user", content: [...first.content, { type: "text", text: note }] }
      : { role: "user", content: [{ type: "text", text: note }] };
  const kept = first.role === "user" ? [head] : [first, head];
  return { messages: [...kept, ...messages.slice(end)], removed: end - 1, removedTokens };
}

/** What the removed messages held, in a few lines: the turns, the tools used, the files named. */
export function snipNote(removed: readonly Message[]): string {
  const tools = new Map<string, number>();
  const files = new Set<string>();
  let turns = 0;
  for (const message of removed) {
    if (message.role !== "assistant") continue;
    turns++;
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      tools.set(block.name, (tools.get(block.name) ?? 0) + 1);
      const path = pathOf(block);
      if (path) files.add(path);
    }
  }
  const toolList = [...tools].map(([name, n]) => `${name} ×${n}`).join(", ");
  const fileList = [...files];
  const shownFiles = fileList.slice(0, 30).join(", ");
  const moreFiles = fileList.length > 30 ? ` and ${fileList.length - 30} more` : "";
  return [
    `${SNIP_NOTE_OPEN} ${removed.length} messages (${turns} of your turns) were removed here to save context.`,
    toolList ? `Tools used in them: ${toolList}.` : "",
    shownFiles ? `Files they touched: ${shownFiles}${moreFiles}.` : "",
    "Read a file again if you need its current content.]",
  ]
    .filter(Boolean)
    .join(" ");
}

function pathOf(block: ToolUseBlock): string | undefined {
  for (const key of ["file_path", "notebook_path", "path"]) {
    const value = block.input[key];
    if (typeof value === "string" && value.length > 0 && value.length < 500) return value;
  }
  return undefined;
}
