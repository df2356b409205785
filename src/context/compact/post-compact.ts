// What the conversation holds after a compaction: the summary (as the first user message), the
// state the sources put back (the todo list, the plan, memory files that had been attached, the
// date, new tools...) with the files the model read most recently, and, when it fits, the newest
// exchange verbatim (the tool results the model has not answered yet are worth more than a
// summary of them). The session's read records follow: a file whose text was not put back whole
// is forgotten, so that reading it again returns its text (not "unchanged since last read", which
// points at a result the summary replaced) and an edit asks for that read first, as after any
// file the model has not seen (Claude Code clears its read state at a compaction too).
import type { AssistantMessage, Message, UserMessage } from "../../messages/types.js";
import type { ReadFileState } from "../../tool/read-file-state.js";
import { estimateMessageTokens, estimateTextTokens } from "../token-estimate.js";
import { reinjectedStateText, summaryMessageText } from "./summary-prompt.js";

/** Recently read files put back after a compaction: how many, and how much of each and in all. */
export const REINJECTED_FILES = 5;
export const REINJECTED_FILE_MAX_TOKENS = 5_000;
export const REINJECTED_FILES_MAX_TOKENS = 20_000;
/** A part of the put-back state shorter than this is left out rather than cut to a stub. */
const MIN_CUT_TOKENS = 200;

export interface PostCompactInput {
  summary: string;
  /** The session goes on working (auto compaction) rather than waiting for the user (manual). */
  continueWork: boolean;
  /** Texts the attachment sources put back, one per kind. */
  reinjected: ReadonlyArray<{ kind: string; text: string }>;
  readFileState: ReadFileState;
  loadedDeferredTools: readonly string[];
  /** The conversation before the compaction, to keep its newest exchange. */
  previous: readonly Message[];
  /** The newest exchange is kept verbatim only under this many estimated tokens. */
  tailMaxTokens: number;
  /**
   * Estimated tokens the sources' texts and the files may take together (from the model's window:
   * ContextThresholds.restoredStateMaxTokens). The sources' state goes first; files get the rest.
   */
  restoredMaxTokens: number;
}

export function postCompactMessages(input: PostCompactInput): Message[] {
  const summary: UserMessage = {
    role: "user",
    content: [{ type: "text", text: summaryMessageText(input.summary, input.continueWork) }],
    isMeta: true,
    attachment: "compact_summary",
  };
  const parts: string[] = [];
  // The tools line is a few names, and without it the model would think its tools gone.
  if (input.loadedDeferredTools.length > 0) {
    parts.push(`Tools you loaded earlier with ToolSearch are still loaded: ${input.loadedDeferredTools.join(", ")}.`);
  }
  let left = input.restoredMaxTokens;
  for (const entry of input.reinjected) {
    const text = withinTokens(entry.text, left);
    if (text === undefined) continue;
    parts.push(text);
    left -= estimateTextTokens(text.length);
  }
  const files = recentFiles(input.readFileState, Math.min(left, REINJECTED_FILES_MAX_TOKENS));
  if (files.text) parts.push(files.text);
  forgetReadsOutOfView(input.readFileState, files.whole);
  const out: Message[] = [summary];
  if (parts.length > 0) {
    out.push({
      role: "user",
      content: [{ type: "text", text: `<system-reminder>\n${reinjectedStateText(parts)}\n</system-reminder>` }],
      isMeta: true,
      attachment: "compact_reinjection",
    });
  }
  if (input.continueWork) out.push(...newestExchange(input.previous, input.tailMaxTokens));
  return out;
}

/** The text, or its start with a note when it is over `maxTokens`; nothing when little would be left. */
function withinTokens(text: string, maxTokens: number): string | undefined {
  if (estimateTextTokens(text.length) <= maxTokens) return text;
  if (maxTokens < MIN_CUT_TOKENS) return undefined;
  const note = "\n[... cut here to leave room after the summary]";
  return `${text.slice(0, maxTokens * 4 - note.length)}${note}`;
}

/**
 * The most recently read whole files, as the model last saw them, newest first (the work it was
 * doing): at most REINJECTED_FILES, each cut to REINJECTED_FILE_MAX_TOKENS and to what is left of
 * `maxTokens`, until too little is left to be worth a file.
 */
function recentFiles(state: ReadFileState, maxTokens: number): { text?: string; whole: Set<string> } {
  const blocks: string[] = [];
  const whole = new Set<string>();
  let left = maxTokens;
  for (const path of state.keys().reverse()) {
    if (blocks.length >= REINJECTED_FILES || left < MIN_CUT_TOKENS) break;
    const record = state.peek(path);
    if (!record || record.isPartialView || record.limit !== undefined || record.content === "") continue;
    const header = `${path} (as you last read it):\n`;
    let content = record.content;
    const room = Math.min(REINJECTED_FILE_MAX_TOKENS, left) * 4 - header.length;
    if (content.length > room) {
      const note = "\n[... the rest of the file is not shown: read it again if you need it]";
      content = `${content.slice(0, Math.max(0, room - note.length))}${note}`;
    } else {
      whole.add(path);
    }
    left -= estimateTextTokens(header.length + content.length);
    blocks.push(`${header}${content}`);
  }
  return { text: blocks.length > 0 ? `Files you read most recently:\n\n${blocks.join("\n\n")}` : undefined, whole };
}

/** Every read record but those of the files put back whole goes: their text left the conversation. */
function forgetReadsOutOfView(state: ReadFileState, inView: ReadonlySet<string>): void {
  for (const path of state.keys()) if (!inView.has(path)) state.delete(path);
}

/**
 * The newest assistant message that called tools and the results after it, copied (usage
 * dropped: it measured the conversation before the compaction), when small enough.
 */
function newestExchange(messages: readonly Message[], maxTokens: number): Message[] {
  let start = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role === "assistant" && message.content.some((b) => b.type === "tool_use")) {
      start = i;
      break;
    }
  }
  if (start < 0) return [];
  const tail = messages.slice(start);
  let tokens = 0;
  for (const message of tail) tokens += estimateMessageTokens(message);
  if (tokens > maxTokens) return [];
  return tail.map((message) => {
    if (message.role !== "assistant") return message;
    const { usage: _dropped, ...rest } = message;
    return rest satisfies AssistantMessage;
  });
}
