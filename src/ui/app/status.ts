// What the status line shows: the mode, the tokens of the session so far (the running prompt's
// requests included before the session adds them up), how much of the context window is left
// after the last request, the cost and the model.
import type { SessionEngine } from "../../loop/session.js";
import type { PermissionMode } from "../../tool/permission-types.js";
import type { StatusInfo } from "../components/StatusLine.js";

export interface StatusInputs {
  mode: PermissionMode;
  /** Undefined while the session starts. */
  engine: SessionEngine | undefined;
  /** Tokens of the running prompt's requests so far. */
  running: { input: number; output: number };
  /** Input and output tokens of the last request, when there was one. */
  lastContextTokens: number | undefined;
  hint: string | undefined;
}

export function sessionStatus({ mode, engine, running, lastContextTokens, hint }: StatusInputs): StatusInfo {
  const usage = engine?.usage;
  const contextWindow = engine?.modelInfo.contextWindow;
  return {
    mode,
    inputTokens:
      running.input +
      (usage
        ? usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0)
        : 0),
    outputTokens: running.output + (usage?.output_tokens ?? 0),
    contextLeftPercent:
      lastContextTokens !== undefined && contextWindow
        ? Math.max(0, 100 - (100 * lastContextTokens) / contextWindow)
        : undefined,
    costUsd: knownCost(engine),
    model: engine?.modelLabel ?? "",
    hint,
  };
}

/**
 * Adds a response's usage to the running prompt's tokens, and notes how much of the context its
 * request and answer took (what the status line's "context left" reads).
 */
export function countResponseUsage(
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  },
  running: { input: number; output: number },
  lastContext: { current: number | undefined },
): void {
  const input = usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  lastContext.current = input + usage.output_tokens;
  running.input += input;
  running.output += usage.output_tokens;
}

/**
 * What the session has cost, or null when that is not known: a model used has no price (a local
 * or replay model), including before its first request, when the ledger still says 0.
 */
export function knownCost(engine: SessionEngine | undefined): number | null {
  if (!engine?.modelInfo.price) return null;
  return engine.totalCostUSD;
}
