// How many tokens the next request will carry, without a tokenizer and without counting the whole
// conversation every turn: the provider told us, in the last response's usage, how many tokens the
// request before it held (prompt, cache reads and writes) and how many it wrote; only what was
// added since is estimated, at about four characters a token. After a compaction there is no such
// usage yet, and the (now small) request is estimated whole once.
import type { ContentBlock, Message, ToolResultContent, Usage } from "../messages/types.js";

/** English and code average a little under four characters per token with Claude's and OpenAI's tokenizers. */
export const CHARS_PER_TOKEN = 4;
/** An image counts about this much at the size providers scale images down to. */
export const IMAGE_TOKENS = 1_600;
/** Role, separators and block framing cost a few tokens per message. */
const MESSAGE_OVERHEAD_TOKENS = 4;

/** Every token of one request and its response, as the provider counted them. */
export function usageTotalTokens(usage: Usage): number {
  return (
    usage.input_tokens +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    usage.output_tokens
  );
}

export function estimateTextTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function resultContentTokens(content: ToolResultContent): number {
  if (typeof content === "string") return estimateTextTokens(content.length);
  let tokens = 0;
  for (const part of content) tokens += part.type === "text" ? estimateTextTokens(part.text.length) : IMAGE_TOKENS;
  return tokens;
}

export function estimateBlockTokens(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return estimateTextTokens(block.text.length);
    case "thinking":
      return estimateTextTokens(block.thinking.length);
    case "image":
      return IMAGE_TOKENS;
    case "tool_use":
      return estimateTextTokens(block.name.length + JSON.stringify(block.input).length) + 8;
    case "tool_result":
      return resultContentTokens(block.content) + 8;
  }
}

// Messages are not changed once in the conversation (a compaction makes new ones), so each is
// estimated once however many turns it is looked at.
const cache = new WeakMap<Message, number>();

/** A message whose content was rewritten in place (a result cleared in the history) is estimated again. */
export function forgetEstimate(message: Message): void {
  cache.delete(message);
}

export function estimateMessageTokens(message: Message): number {
  const known = cache.get(message);
  if (known !== undefined) return known;
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  for (const block of message.content) tokens += estimateBlockTokens(block);
  cache.set(message, tokens);
  return tokens;
}

/**
 * Tokens of a request of `messages` (as they will be sent) under a prefix (system prompt and tool
 * schemas) of `prefixTokens`: the usage of the newest response that reported one, plus an
 * estimate of every message after it. Without such a response, the prefix and every message are
 * estimated. `fromUsage` says which: only a usage-based figure still counts what a strategy has
 * just removed from the request.
 */
export function estimateRequest(
  messages: readonly Message[],
  prefixTokens: number,
): { tokens: number; fromUsage: boolean } {
  let added = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role === "assistant" && message.usage && usageTotalTokens(message.usage) > 0) {
      return { tokens: usageTotalTokens(message.usage) + added, fromUsage: true };
    }
    added += estimateMessageTokens(message);
  }
  return { tokens: prefixTokens + added, fromUsage: false };
}

export function estimateRequestTokens(messages: readonly Message[], prefixTokens: number): number {
  return estimateRequest(messages, prefixTokens).tokens;
}

const prefixCache = new WeakMap<object, number>();

/** Tokens of a request prefix (system prompt and tool schemas), estimated once per prefix object. */
export function estimatePrefixTokens(prefix: { system: string; tools: readonly unknown[] }): number {
  const known = prefixCache.get(prefix);
  if (known !== undefined) return known;
  const tokens = estimateTextTokens(prefix.system.length + JSON.stringify(prefix.tools).length);
  prefixCache.set(prefix, tokens);
  return tokens;
}
