// What the PreModelSwitch and PostModelSwitch hooks are told of a switch: the two models, what was
// asked for, and what the switch costs (the conversation re-sent to a model whose cache is cold).

import type { SessionEngine } from "../loop/session.js";
import type { Message } from "../messages/types.js";
import type { ModelSwitchFacts, ModelSwitchSource } from "../tool/tool-call-hooks.js";

/** Prompt tokens the next request re-sends: the last response's input, cache and output tokens (0 before any). */
export function lastContextTokens(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role !== "assistant" || !message.usage) continue;
    const u = message.usage;
    return u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + u.output_tokens;
  }
  return 0;
}

type ModelInfo = SessionEngine["modelInfo"];

export function modelSwitchFacts(
  from: ModelInfo,
  to: ModelInfo,
  requested: string | undefined,
  source: ModelSwitchSource,
  messages: readonly Message[],
): ModelSwitchFacts {
  const contextTokens = lastContextTokens(messages);
  const wanted = requested?.trim();
  const pricing = !to.price ? "default" : to.source === "settings" ? "configured" : "catalog";
  return {
    fromModel: from.model,
    toModel: to.model,
    requestedModel: wanted === undefined || wanted === "" || wanted === "default" ? null : wanted,
    source,
    contextTokens,
    promptCacheWarm: contextTokens > 0,
    // Prices are dollars per million tokens.
    estimatedCacheWriteUsd: to.price ? (contextTokens * to.price.cacheWrite) / 1_000_000 : 0,
    pricing,
  };
}
