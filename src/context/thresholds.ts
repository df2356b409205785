// When each context strategy fires, from the model's window. Autocompaction leaves room for the
// summary it asks the model to write (up to 20,000 tokens of output) and a margin for what the
// estimate cannot see; microcompaction starts well before, so that old tool results are cleared
// in a few large batches (each batch changes the request once, and the prompt cache is rebuilt
// once) instead of a little every turn.
import type { ModelLimits } from "../models/catalog.js";

/** Output kept free for the compaction summary (Claude Code keeps the same). */
export const SUMMARY_OUTPUT_RESERVE_TOKENS = 20_000;
/** Margin below the usable window: the estimate is only an estimate. */
export const AUTOCOMPACT_MARGIN_TOKENS = 13_000;
/**
 * Share of the compaction threshold that what a compaction puts back may take: the sources' state
 * (todo list, plan, memory files, skill listing...) and the files read last. After a compaction
 * the request holds the system prompt and tools, the summary, this, and the newest exchange (up
 * to a quarter of the threshold, loop/context-manager.ts); with 12% the conversation starts well
 * under half the threshold, so the session gets several turns of work before the next one. On a
 * 200k window that is the 20,000 tokens of files Claude Code also puts back (at most 5 files); on
 * a local model's 32k window, about 2,600: a fixed 20,000 there filled the window again at once
 * and the session compacted after nearly every read.
 */
export const RESTORED_STATE_SHARE = 0.12;

export interface ContextManagementOptions {
  /** Summarise the conversation when it nears the window (default true). */
  autoCompact?: boolean;
  /** Estimated tokens at which to compact; default: window − output reserve − margin. */
  autoCompactAt?: number;
  /** Estimated tokens at which old tool results start being cleared; default 60% of autoCompactAt. */
  microcompactAt?: number;
  /** Clear old results until the estimate is below this; default 40% of autoCompactAt. */
  microcompactTarget?: number;
  /** The newest model turns whose tool results are never cleared (default 3). */
  microcompactKeepTurns?: number;
  /** Messages in a request beyond which the oldest are snipped (default 400; 0 turns snip off). */
  snipAfterMessages?: number;
  /** How many messages a snip leaves (default half of snipAfterMessages). */
  snipKeepMessages?: number;
}

export interface ContextThresholds {
  autoCompact: boolean;
  autoCompactAt: number;
  microcompactAt: number;
  microcompactTarget: number;
  microcompactKeepTurns: number;
  snipAfterMessages: number;
  snipKeepMessages: number;
  /** Estimated tokens that what a compaction puts back may take in all (RESTORED_STATE_SHARE). */
  restoredStateMaxTokens: number;
}

export const DEFAULT_SNIP_AFTER_MESSAGES = 400;

export function contextThresholds(limits: ModelLimits, options: ContextManagementOptions = {}): ContextThresholds {
  const reserve = Math.min(limits.maxOutputTokens, SUMMARY_OUTPUT_RESERVE_TOKENS);
  const usable = Math.min(limits.contextWindow - reserve, limits.maxInputTokens ?? Number.POSITIVE_INFINITY);
  const margin = Math.min(AUTOCOMPACT_MARGIN_TOKENS, Math.floor(usable * 0.1));
  const autoCompactAt = Math.max(1, options.autoCompactAt ?? usable - margin);
  const snipAfterMessages = options.snipAfterMessages ?? DEFAULT_SNIP_AFTER_MESSAGES;
  return {
    autoCompact: options.autoCompact ?? true,
    autoCompactAt,
    microcompactAt: options.microcompactAt ?? Math.floor(autoCompactAt * 0.6),
    microcompactTarget: options.microcompactTarget ?? Math.floor(autoCompactAt * 0.4),
    microcompactKeepTurns: options.microcompactKeepTurns ?? 3,
    snipAfterMessages,
    snipKeepMessages: options.snipKeepMessages ?? Math.floor(snipAfterMessages / 2),
    restoredStateMaxTokens: Math.floor(autoCompactAt * RESTORED_STATE_SHARE),
  };
}
