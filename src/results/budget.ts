import type { Message, ToolResultBlock, UserContentBlock, UserMessage } from "../messages/types.js";
import { findToolByName } from "../tool/pool.js";
import type { AnyTool, ToolUseContext } from "../tool/types.js";
import { persistResultBlock } from "./limit-result.js";
import {
  effectiveResultLimit,
  MAX_TOOL_RESULTS_PER_MESSAGE_CHARS,
  persistableText,
  resultContentSize,
} from "./limits.js";
import { isPersistedOutput } from "./persisted-output.js";
import { appendReplacementJournal, readReplacementJournal } from "./replacement-journal.js";
import { type ToolResultReplacementState, toolResultReplacementStateOf } from "./replacement-state.js";

export interface ToolResultBudgetOptions {
  state: ToolResultReplacementState;
  /** The session's pool, to know which results may never be persisted (Read). */
  tools: readonly AnyTool[];
  sessionDir: string;
  /** Characters of tool results one user message may carry; defaults to 200,000. */
  maxCharsPerMessage?: number;
  /** Also record each replacement in the session's journal (so a resumed session keeps it). */
  journal?: boolean;
}

interface Candidate {
  index: number;
  block: ToolResultBlock;
  size: number;
}

/**
 * The messages as they should be sent: within each user message, tool results together stay
 * under the per-message budget, the largest fresh results being persisted (preview in their
 * place) first until the rest fits. Decisions already taken are replayed exactly, never revised,
 * so the request prefix stays byte-stable across turns. History itself is not changed: messages
 * that need a replacement are copied.
 */
export async function applyToolResultBudget(
  messages: readonly Message[],
  options: ToolResultBudgetOptions,
): Promise<Message[]> {
  const limit = options.maxCharsPerMessage ?? MAX_TOOL_RESULTS_PER_MESSAGE_CHARS;
  const toolNameById = toolNamesByUseId(messages);
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role !== "user" || !message.content.some((b) => b.type === "tool_result")) {
      out.push(message);
      continue;
    }
    out.push(await budgetOneMessage(message, limit, toolNameById, options));
  }
  return out;
}

async function budgetOneMessage(
  message: UserMessage,
  limit: number,
  toolNameById: Map<string, string>,
  { state, tools, sessionDir, journal }: ToolResultBudgetOptions,
): Promise<UserMessage> {
  const content: UserContentBlock[] = [...message.content];
  const fresh: Candidate[] = [];
  let total = 0;
  let changed = false;

  content.forEach((block, index) => {
    if (block.type !== "tool_result") return;
    const frozen = state.replaced.get(block.tool_use_id);
    if (frozen !== undefined) {
      content[index] = { ...block, content: frozen };
      changed = true;
      total += frozen.length;
      return;
    }
    const size = resultContentSize(block.content);
    total += size;
    if (!state.kept.has(block.tool_use_id)) fresh.push({ index, block, size });
  });

  if (total > limit) {
    const persistable = fresh
      .filter((c) => mayPersist(c.block, toolNameById, tools))
      // Largest first; equal sizes keep call order so the choice is reproducible.
      .sort((a, b) => b.size - a.size || a.index - b.index);
    for (const candidate of persistable) {
      if (total <= limit) break;
      const replacement = await persistResultBlock(candidate.block, sessionDir);
      if (replacement === candidate.block || typeof replacement.content !== "string") continue;
      const replacementText = replacement.content;
      state.replaced.set(candidate.block.tool_use_id, replacementText);
      if (journal) {
        // Losing the journal line only costs a re-decision after a resume; never fail the request.
        await appendReplacementJournal(sessionDir, candidate.block.tool_use_id, replacementText).catch(() => {});
      }
      content[candidate.index] = replacement;
      changed = true;
      total += replacementText.length - candidate.size;
    }
  }
  for (const candidate of fresh) {
    if (!state.replaced.has(candidate.block.tool_use_id)) state.kept.add(candidate.block.tool_use_id);
  }
  return changed ? { ...message, content } : message;
}

function mayPersist(block: ToolResultBlock, toolNameById: Map<string, string>, tools: readonly AnyTool[]): boolean {
  const text = persistableText(block.content);
  if (text === undefined || isPersistedOutput(text)) return false;
  const name = toolNameById.get(block.tool_use_id);
  const tool = name === undefined ? undefined : findToolByName(tools, name);
  return effectiveResultLimit(tool) !== Number.POSITIVE_INFINITY;
}

function toolNamesByUseId(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "tool_use") names.set(block.id, block.name);
  }
  return names;
}

/**
 * The budget as a session applies it: its pool, its results folder, its frozen decisions, which
 * are also journaled on disk and read back the first time (a resumed session keeps them).
 */
export async function budgetRequestMessages(messages: readonly Message[], context: ToolUseContext): Promise<Message[]> {
  const state = toolResultReplacementStateOf(context);
  const sessionDir = context.options.sessionDir;
  if (!state.journalRead) {
    state.journalRead = true;
    for (const [id, content] of await readReplacementJournal(sessionDir)) {
      if (!state.replaced.has(id)) state.replaced.set(id, content);
    }
  }
  return applyToolResultBudget(messages, { state, tools: context.options.tools, sessionDir, journal: true });
}
