// Microcompact: once the request passes `microcompactAt` estimated tokens, old tool results are
// rewritten in place to a short stub that keeps what happened (which tool, called with what, how
// big its result was, where the full text is), oldest first, until the estimate is back under
// `microcompactTarget`. The newest turns' results are never touched: the model is working with
// them. Each stub is a frozen decision in the session's replacement state (the same one the
// per-message budget keeps, journaled on disk): from then on the result goes out as the very same
// stub on every request, so the request prefix stays byte-stable between two microcompactions and
// the prompt cache is rebuilt once per batch, not every turn.
import type { Message, ToolResultBlock, ToolUseBlock, UserMessage } from "../messages/types.js";
import { toolResultText } from "../messages/types.js";
import { effectiveResultLimit, persistableText, resultContentSize } from "../results/limits.js";
import { persistToolResult } from "../results/persist.js";
import { isPersistedOutput } from "../results/persisted-output.js";
import { formatSize } from "../results/preview.js";
import { appendReplacementJournalEntries } from "../results/replacement-journal.js";
import type { ToolResultReplacementState } from "../tool/app-state.js";
import { findToolByName } from "../tool/pool.js";
import type { AnyTool } from "../tool/types.js";
import { estimateBlockTokens, estimateTextTokens, forgetEstimate } from "./token-estimate.js";

export const MICROCOMPACT_STUB_OPEN = "[Old tool result cleared to save context:";
/** A result smaller than this is left alone: its stub would save next to nothing. */
export const MIN_CLEARED_RESULT_CHARS = 1_500;
const MAX_INPUT_SUMMARY_CHARS = 200;

export interface MicrocompactOptions {
  state: ToolResultReplacementState;
  tools: readonly AnyTool[];
  sessionDir: string;
  /** The newest assistant turns whose results are never cleared. */
  keepTurns: number;
  /** Estimated tokens of the request now, and the level to bring it under. */
  estimate: number;
  target: number;
  /**
   * The session's history: a cleared result is cleared there too, in place, so a long session does
   * not keep every large result in memory (the transcript on disk keeps them whole).
   */
  history?: Message[];
}

export interface MicrocompactResult {
  messages: Message[];
  /** Results cleared by this call. */
  cleared: number;
  /** Estimated tokens saved by this call. */
  savedTokens: number;
  /** The calls whose results this call cleared (a cleared Read's file is out of the model's view). */
  clearedCalls: ToolUseBlock[];
}

export async function microcompact(
  messages: readonly Message[],
  options: MicrocompactOptions,
): Promise<MicrocompactResult> {
  const calls = new Map<string, ToolUseBlock>();
  let protectedFrom = messages.length;
  let turnsSeen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role !== "assistant" || !message.content.some((b) => b.type === "tool_use")) continue;
    if (turnsSeen < options.keepTurns) protectedFrom = i;
    turnsSeen++;
  }
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "tool_use") calls.set(block.id, block);
  }

  const out = [...messages];
  const journal: Array<{ toolUseId: string; content: string }> = [];
  const clearedCalls: ToolUseBlock[] = [];
  let saved = 0;
  let cleared = 0;
  for (let i = 0; i < protectedFrom && options.estimate - saved > options.target; i++) {
    const message = out[i] as Message;
    if (message.role !== "user") continue;
    let content: UserMessage["content"] | undefined;
    for (let j = 0; j < message.content.length && options.estimate - saved > options.target; j++) {
      const block = message.content[j];
      if (block?.type !== "tool_result" || !clearable(block, options.state)) continue;
      const call = calls.get(block.tool_use_id);
      const stub = await stubFor(block, call, options);
      if (call) clearedCalls.push(call);
      options.state.replaced.set(block.tool_use_id, stub);
      journal.push({ toolUseId: block.tool_use_id, content: stub });
      content ??= [...message.content];
      content[j] = { ...block, content: stub };
      saved += estimateBlockTokens(block) - estimateTextTokens(stub.length);
      cleared++;
    }
    if (content) out[i] = { ...message, content };
  }
  // Losing the journal only costs a re-decision after a resume; never fail the request.
  await appendReplacementJournalEntries(options.sessionDir, journal).catch(() => {});
  if (options.history && journal.length > 0) clearInHistory(options.history, options.state);
  return { messages: out, cleared, savedTokens: Math.max(0, saved), clearedCalls };
}

/**
 * Puts each frozen stub in place of the full result in the history itself. The request is the
 * same either way (the budget sends the frozen stub); only memory changes. Results that the
 * per-message budget replaced by a preview are left whole: a stub is what lets memory go.
 */
function clearInHistory(history: Message[], state: ToolResultReplacementState): void {
  for (const message of history) {
    if (message.role !== "user") continue;
    for (let j = 0; j < message.content.length; j++) {
      const block = message.content[j];
      if (block?.type !== "tool_result") continue;
      const stub = state.replaced.get(block.tool_use_id);
      if (stub === undefined || !stub.startsWith(MICROCOMPACT_STUB_OPEN) || block.content === stub) continue;
      message.content[j] = { ...block, content: stub };
      forgetEstimate(message);
    }
  }
}

function clearable(block: ToolResultBlock, state: ToolResultReplacementState): boolean {
  const frozen = state.replaced.get(block.tool_use_id);
  if (frozen?.startsWith(MICROCOMPACT_STUB_OPEN)) return false;
  return resultContentSize(block.content) >= MIN_CLEARED_RESULT_CHARS || typeof block.content !== "string";
}

async function stubFor(
  block: ToolResultBlock,
  call: ToolUseBlock | undefined,
  options: MicrocompactOptions,
): Promise<string> {
  const name = call?.name ?? "a tool";
  const input = call ? inputSummary(call.input) : "";
  const size = resultContentSize(block.content);
  const what = `${name}(${input}) returned ${formatSize(size)}${block.is_error ? " (an error)" : ""}.`;
  return `${MICROCOMPACT_STUB_OPEN} ${what} ${await whereIsTheFullText(block, call, options)}]`;
}

/** Where the model can find the full result again: its saved file, or by running the call again. */
async function whereIsTheFullText(
  block: ToolResultBlock,
  call: ToolUseBlock | undefined,
  options: MicrocompactOptions,
): Promise<string> {
  const text = persistableText(block.content);
  if (text !== undefined && isPersistedOutput(text)) {
    const path = /saved to: (\S+)/.exec(text)?.[1];
    if (path) return `The full text is saved at ${path}; read it if you need it again.`;
  }
  const tool = call ? findToolByName(options.tools, call.name) : undefined;
  // A tool whose results are never saved (Read: the saved copy would have to be read back with
  // Read) is simply called again.
  if (text === undefined || effectiveResultLimit(tool) === Number.POSITIVE_INFINITY) {
    return "Call it again if you need the result.";
  }
  try {
    const path = await persistToolResult(text, block.tool_use_id, options.sessionDir);
    return `The full text is saved at ${path}; read it if you need it again.`;
  } catch {
    return "Call it again if you need the result.";
  }
}

function inputSummary(input: Record<string, unknown>): string {
  const json = JSON.stringify(input);
  return json.length <= MAX_INPUT_SUMMARY_CHARS ? json : `${json.slice(0, MAX_INPUT_SUMMARY_CHARS)}…`;
}

/** True for a result the model sees as a microcompact stub. */
export function isMicrocompactStub(block: ToolResultBlock): boolean {
  return toolResultText(block.content).startsWith(MICROCOMPACT_STUB_OPEN);
}
