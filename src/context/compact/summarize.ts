// The model call of a compaction: the conversation as it would be sent, then a request for a
// summary. The same system prompt and tools go with it, so the provider's prompt cache of the
// conversation is read, not rebuilt. A conversation that no longer fits (the reason we are here
// after a prompt_too_long, or after one turn added more than the margin) has its longest tool
// results shortened first (./shorten-results.ts), then is cut from the front, keeping the first
// message (the task), and cut further if the provider still refuses it.
import type { Message, TextBlock, Usage, UserMessage } from "../../messages/types.js";
import type { ModelInfo } from "../../models/resolve.js";
import { type Provider, ProviderError, type ToolSchema } from "../../providers/types.js";
import { snipNote } from "../snip.js";
import { SUMMARY_OUTPUT_RESERVE_TOKENS } from "../thresholds.js";
import { estimateMessageTokens, estimateTextTokens } from "../token-estimate.js";
import { shortenLongResults } from "./shorten-results.js";
import { summaryRequest } from "./summary-prompt.js";

export interface SummarizeParams {
  provider: Provider;
  model: string;
  modelInfo: ModelInfo;
  system: string;
  tools: ToolSchema[];
  /** The conversation as it would be sent now. */
  messages: readonly Message[];
  instructions: readonly string[];
  signal: AbortSignal;
  /** Each response's usage (the summary costs like any request). */
  onUsage: (usage: Usage) => void;
  /**
   * The provider's refusal that brought us here (prompt_too_long): the conversation is cut from the
   * start, by as much as the provider's own count says our estimate fell short.
   */
  refusal?: string;
}

/** Tries again with a quarter less of the conversation each time the provider says it is too long. */
const ATTEMPTS = 4;

export async function summarize(params: SummarizeParams): Promise<string> {
  const request: UserMessage = { role: "user", content: [{ type: "text", text: summaryRequest(params.instructions) }] };
  const outputTokens = Math.min(params.modelInfo.maxOutputTokens, SUMMARY_OUTPUT_RESERVE_TOKENS);
  const usable =
    Math.min(
      params.modelInfo.contextWindow - outputTokens,
      params.modelInfo.maxInputTokens ?? Number.POSITIVE_INFINITY,
    ) -
    estimateTextTokens(params.system.length + JSON.stringify(params.tools).length) -
    estimateMessageTokens(request);
  let budget = Math.floor(usable * 0.95);
  if (params.refusal !== undefined) budget = shrunk(budget, estimateAll(params.messages), params.refusal);
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const fitted = Math.max(1_000, budget);
    const messages = fitFromTheFront(shortenLongResults(params.messages, fitted), fitted);
    try {
      return await ask(params, withRequest(messages, request), outputTokens);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== "prompt_too_long") throw error;
      lastError = error;
      budget = shrunk(budget, estimateAll(messages), error.message);
    }
  }
  throw lastError;
}

async function ask(params: SummarizeParams, messages: Message[], maxTokens: number): Promise<string> {
  const texts: string[] = [];
  for await (const event of params.provider.stream({
    model: params.model,
    system: params.system,
    tools: params.tools,
    messages,
    maxTokens,
    signal: params.signal,
  })) {
    if (event.type === "block" && event.block.type === "text") texts.push((event.block as TextBlock).text);
    else if (event.type === "usage") params.onUsage(event.usage);
    else if (event.type === "reset") texts.length = 0;
  }
  const summary = texts.join("\n").trim();
  if (summary === "") throw new Error("the model answered the summary request without any text");
  return summary;
}

function estimateAll(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/**
 * The budget for the next try after the provider refused `sentTokens` (our estimate) as too long:
 * scaled by the provider's own figures when its message gives them ("212000 tokens > 200000
 * maximum", "maximum context length is 128000 tokens ... resulted in 131000 tokens"), and at least
 * a quarter smaller in any case.
 */
export function shrunk(budget: number, sentTokens: number, refusal: string): number {
  const anthropic = /([\d,]+) tokens? > ([\d,]+)/.exec(refusal);
  const openai = /maximum context length is ([\d,]+) tokens[\s\S]*?resulted in ([\d,]+) tokens/.exec(refusal);
  const num = (text: string | undefined) => Number((text ?? "").replace(/,/g, ""));
  const ratio = anthropic
    ? num(anthropic[2]) / num(anthropic[1])
    : openai
      ? num(openai[1]) / num(openai[2])
      : Number.NaN;
  const factor = Number.isFinite(ratio) && ratio > 0 ? Math.min(0.75, ratio * 0.9) : 0.75;
  return Math.floor(Math.min(budget, sentTokens) * factor);
}

/** The request joins the last message when that is a user message: some servers refuse two in a row. */
function withRequest(messages: Message[], request: UserMessage): Message[] {
  const last = messages.at(-1);
  if (last?.role !== "user") return [...messages, request];
  return [...messages.slice(0, -1), { role: "user", content: [...last.content, ...request.content] }];
}

/**
 * The messages, cut from the front (after the first) at an assistant message until they are
 * estimated under `budget` tokens; what was cut is named in a note on the first message.
 */
export function fitFromTheFront(messages: readonly Message[], budget: number): Message[] {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  if (total <= budget || messages.length < 3) return [...messages];
  let end = 1;
  while (end < messages.length - 1 && total > budget) {
    total -= estimateMessageTokens(messages[end] as Message);
    end++;
    while (end < messages.length - 1 && messages[end]?.role !== "assistant") {
      total -= estimateMessageTokens(messages[end] as Message);
      end++;
    }
  }
  const first = messages[0] as Message;
  const note = { type: "text" as const, text: snipNote(messages.slice(1, end)) };
  const head: UserMessage =
    first.role === "user" ? { role: "user", content: [...first.content, note] } : { role: "user", content: [note] };
  return first.role === "user" ? [head, ...messages.slice(end)] : [first, head, ...messages.slice(end)];
}
