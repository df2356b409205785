// A conversation that does not fit the summary request, made to fit by shortening its longest tool
// results before anything is dropped. One turn can add far more than the margin under the
// compaction threshold (three long files read at once on a 32k window), and cutting whole turns
// from the front then loses the start of the work (the task's first test run, its error) for the
// sake of the text of files that are still on disk. Every result keeps its start and its end (a
// file's head, a test run's verdict), the longest ones lose their middle first.
import type { Message, ToolResultBlock, ToolResultContent } from "../../messages/types.js";
import { CHARS_PER_TOKEN, estimateMessageTokens } from "../token-estimate.js";

/** A result is never shortened below this many characters (about 500 tokens). */
export const MIN_KEPT_RESULT_CHARS = 2_000;
/** Share of what is kept taken from the start of the result (the rest from its end). */
const HEAD_SHARE = 2 / 3;

/**
 * The messages with every tool result's text cut to one length, the longest that brings the
 * estimate under `budget` tokens (never below MIN_KEPT_RESULT_CHARS: what still does not fit is
 * left to the caller to cut from the front). Unchanged when they fit already.
 */
export function shortenLongResults(messages: readonly Message[], budget: number): Message[] {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  if (total <= budget) return [...messages];
  const lengths = resultTextLengths(messages);
  const longest = Math.max(0, ...lengths);
  if (longest <= MIN_KEPT_RESULT_CHARS) return [...messages];
  const saved = (cap: number) =>
    lengths.reduce((sum, length) => sum + Math.max(0, length - cap - NOTE_CHARS), 0) / CHARS_PER_TOKEN;
  // The longest cap that fits, by bisection over [MIN_KEPT_RESULT_CHARS, longest].
  let low = MIN_KEPT_RESULT_CHARS;
  let high = longest;
  while (high - low > 64) {
    const mid = Math.floor((low + high) / 2);
    if (total - saved(mid) <= budget) low = mid;
    else high = mid;
  }
  const cap = low;
  return messages.map((message) => {
    if (message.role !== "user" || !message.content.some((b) => b.type === "tool_result")) return message;
    return {
      ...message,
      content: message.content.map((block) =>
        block.type === "tool_result"
          ? ({ ...block, content: shortened(block.content, cap) } as ToolResultBlock)
          : block,
      ),
    };
  });
}

const note = (left: number) => `\n[... ${left} characters of this result left out for the summary ...]\n`;
const NOTE_CHARS = note(100_000).length;

function resultTextLengths(messages: readonly Message[]): number[] {
  const lengths: number[] = [];
  for (const message of messages) {
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      if (typeof block.content === "string") lengths.push(block.content.length);
      else for (const part of block.content) if (part.type === "text") lengths.push(part.text.length);
    }
  }
  return lengths;
}

function shortened(content: ToolResultContent, cap: number): ToolResultContent {
  const cut = (text: string) => {
    if (text.length <= cap + NOTE_CHARS) return text;
    const head = Math.floor(cap * HEAD_SHARE);
    const tail = cap - head;
    return `${text.slice(0, head)}${note(text.length - cap)}${text.slice(text.length - tail)}`;
  };
  if (typeof content === "string") return cut(content);
  return content.map((part) => (part.type === "text" ? { ...part, text: cut(part.text) } : part));
}
