// Context management before each model request, in the reference's order: the per-message result
// budget, snip, microcompact, then autocompaction when the estimate still passes the model's
// threshold. Also the compaction itself, for the three ways it is asked for: automatically, after
// the provider said the prompt is too long (reactive), and by hand (`session.compact()`,
// `-p "/compact ..."`). One per session: it remembers what the previous request carried.
import { microcompact } from "../context/microcompact.js";
import { snipMessages } from "../context/snip.js";
import type { ContextThresholds } from "../context/thresholds.js";
import { estimateMessageTokens, estimatePrefixTokens, estimateRequest } from "../context/token-estimate.js";
import { addUsage, emptyUsage, type Message, type Usage } from "../messages/types.js";
import type { UsageLedger } from "../models/cost.js";
import type { ModelInfo } from "../models/resolve.js";
import type { Provider } from "../providers/types.js";
import { budgetRequestMessages } from "../results/budget.js";
import { toolResultReplacementStateOf } from "../results/replacement-state.js";
import type { CompactTrigger } from "../tool/compact-hooks.js";
import { findToolByName } from "../tool/pool.js";
import type { ToolUseContext } from "../tool/types.js";
import { sessionWorkingDirectory } from "../tool/working-directory.js";
import type { QueryEvent } from "./events.js";
import type { SessionAttachments } from "./reminders.js";
import { toRequestMessages } from "./request-messages.js";
import type { RequestPrefix } from "./request-prefix.js";

/** Autocompaction is given up for the session after this many failures in a row. */
export const MAX_AUTOCOMPACT_FAILURES = 3;
/** The newest exchange is kept verbatim after a compaction when under this share of the threshold. */
const TAIL_SHARE = 0.25;

export interface ContextManagerOptions {
  provider: Provider;
  model: string;
  modelInfo: ModelInfo;
  thresholds: ContextThresholds;
  attachments: SessionAttachments;
  ledger?: UsageLedger;
  now: () => Date;
}

export interface CompactOptions {
  trigger: CompactTrigger;
  /** Instructions for the summary (`/compact keep the API notes`). */
  instructions?: string;
  /** The loop goes on working after it (auto), or waits for the user (manual). */
  continueWork: boolean;
  /** The provider's refusal of the request as too long: less of the conversation is summarised. */
  refusal?: string;
}

export type CompactOutcome = { ok: true; usage: Usage } | { ok: false; reason: string; usage: Usage };

interface Shaped {
  messages: Message[];
  estimate: number;
}

export class ContextManager {
  /** What the previous request had snipped, to know what this one removes on top. */
  private lastSnip = { removed: 0, tokens: 0 };
  private autoFailures = 0;

  constructor(private readonly options: ContextManagerOptions) {}

  /**
   * The messages to send for the coming request (the history itself is not changed unless it is
   * compacted, in which case `messages` is replaced in place and a boundary event is yielded).
   */
  async *prepare(
    messages: Message[],
    context: ToolUseContext,
    prefix: RequestPrefix,
  ): AsyncGenerator<QueryEvent, Message[]> {
    const shaped = await this.shape(messages, context, prefix);
    const { thresholds } = this.options;
    if (
      !thresholds.autoCompact ||
      shaped.estimate <= thresholds.autoCompactAt ||
      this.autoFailures >= MAX_AUTOCOMPACT_FAILURES
    ) {
      return shaped.messages;
    }
    const outcome = yield* this.compact(messages, context, prefix, { trigger: "auto", continueWork: true }, shaped);
    if (!outcome.ok) return shaped.messages;
    return (await this.shape(messages, context, prefix)).messages;
  }

  /** Budget, snip and microcompact: the request as it goes out, and its estimated size. */
  private async shape(messages: Message[], context: ToolUseContext, prefix: RequestPrefix): Promise<Shaped> {
    const { thresholds } = this.options;
    // Per-message result budget with frozen decisions: earlier turns go out byte for byte the same.
    const budgeted = await budgetRequestMessages(toRequestMessages(messages), context);
    const snipped = snipMessages(budgeted, thresholds.snipAfterMessages, thresholds.snipKeepMessages);
    const measured = estimateRequest(snipped.messages, estimatePrefixTokens(prefix));
    let estimate = measured.tokens;
    // A usage figure still counts what this request newly snipped.
    if (measured.fromUsage && snipped.removed > this.lastSnip.removed) {
      estimate -= Math.max(0, snipped.removedTokens - this.lastSnip.tokens);
    }
    this.lastSnip = { removed: snipped.removed, tokens: snipped.removedTokens };
    if (estimate <= thresholds.microcompactAt) return { messages: snipped.messages, estimate };
    const cleared = await microcompact(snipped.messages, {
      state: toolResultReplacementStateOf(context),
      tools: context.options.tools,
      sessionDir: context.options.sessionDir,
      keepTurns: thresholds.microcompactKeepTurns,
      estimate,
      target: thresholds.microcompactTarget,
      history: messages,
    });
    // A cleared Read's text is gone from the model's view: reading that file again must return it.
    const read = findToolByName(context.options.tools, "Read");
    for (const call of cleared.clearedCalls) {
      const path = call.name === "Read" ? read?.getPath?.(call.input, sessionWorkingDirectory(context)) : undefined;
      if (path !== undefined) context.readFileState.markOutOfView(path);
    }
    return { messages: cleared.messages, estimate: estimate - cleared.savedTokens };
  }

  /**
   * Summarises the conversation and replaces `messages` with the summary, the state the
   * attachment sources put back and (when working on) the newest exchange. Yields the boundary
   * event; a refused or failed compaction yields a notice and leaves the conversation as it was.
   */
  async *compact(
    messages: Message[],
    context: ToolUseContext,
    prefix: RequestPrefix,
    options: CompactOptions,
    shapedNow?: Shaped,
  ): AsyncGenerator<QueryEvent, CompactOutcome> {
    const { provider, model, modelInfo, thresholds, attachments, ledger } = this.options;
    let usage = emptyUsage();
    const failed = (reason: string): CompactOutcome => {
      if (options.trigger === "auto") this.autoFailures++;
      return { ok: false, reason, usage };
    };
    if (messages.length === 0) return failed("there is no conversation to compact yet");
    const hooks = context.getAppState().compactHooks;
    const signal = context.abortController.signal;
    const instructions = options.instructions?.trim() ? [options.instructions.trim()] : [];
    if (hooks?.has("PreCompact")) {
      const pre = await hooks.preCompact(options.trigger, options.instructions, signal);
      for (const error of pre.errors) yield { type: "notice", message: `PreCompact hook: ${error}` };
      if (pre.blocked !== undefined) {
        yield { type: "notice", message: `compaction refused by a PreCompact hook: ${pre.blocked}` };
        return failed(pre.blocked);
      }
      instructions.push(...pre.instructions);
    }
    const shaped = shapedNow ?? (await this.shape(messages, context, prefix));
    // Loaded on the first compaction: most sessions never have one.
    const [{ summarize }, { postCompactMessages }] = await Promise.all([
      import("../context/compact/summarize.js"),
      import("../context/compact/post-compact.js"),
    ]);
    let summary: string;
    try {
      summary = await summarize({
        provider,
        model,
        modelInfo,
        system: prefix.system,
        tools: prefix.tools,
        messages: shaped.messages,
        instructions,
        signal,
        onUsage: (more) => {
          usage = addUsage(usage, more);
          ledger?.add(modelInfo, more);
        },
        refusal: options.refusal,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!signal.aborted) yield { type: "notice", message: `compaction failed: ${reason}` };
      return failed(reason);
    }
    this.autoFailures = 0;

    // The sources size what they put back by the window (the skill listing), as before a request.
    const base = {
      context: { ...context, messages },
      now: this.options.now(),
      contextUsage: {
        estimatedTokens: shaped.estimate,
        contextWindow: modelInfo.contextWindow,
        compactAt: thresholds.autoCompactAt,
      },
    };
    const post = postCompactMessages({
      summary,
      continueWork: options.continueWork,
      reinjected: await attachments.afterCompaction(base),
      readFileState: context.readFileState,
      loadedDeferredTools: context.getAppState().loadedDeferredTools ?? [],
      previous: messages,
      tailMaxTokens: Math.floor(thresholds.autoCompactAt * TAIL_SHARE),
      restoredMaxTokens: thresholds.restoredStateMaxTokens,
    });
    messages.splice(0, messages.length, ...post);
    this.lastSnip = { removed: 0, tokens: 0 };
    let postTokens = estimatePrefixTokens(prefix);
    for (const message of post) postTokens += estimateMessageTokens(message);
    yield {
      type: "compact_boundary",
      trigger: options.trigger,
      preTokens: shaped.estimate,
      postTokens,
      summary,
      messages: post,
      usage,
    };

    if (hooks?.has("PostCompact")) {
      const after = await hooks.postCompact(options.trigger, summary, signal);
      for (const error of after.errors) yield { type: "notice", message: `PostCompact hook: ${error}` };
    }
    if (hooks?.has("SessionStart")) {
      // As after a fresh start: what these hooks add reaches the model with the next request.
      const start = await hooks.sessionStart("compact", signal);
      for (const error of start.errors) yield { type: "notice", message: `SessionStart hook: ${error}` };
      const texts = start.additionalContext.map((text) => `SessionStart hook context: ${text}`);
      if (texts.length > 0) {
        context.channels.reminders.send(...texts);
      }
    }
    return { ok: true, usage };
  }
}
