import type { ToolUseContext } from "../tool/types.js";

/**
 * Every budget decision ever sent, per session. A result is decided the first time a request
 * carries it and never again: kept results go out unchanged forever, replaced ones go out as the
 * very same preview text. A decision that flipped on a later turn would change bytes in the middle
 * of the conversation and throw away the provider's prompt cache from that point on.
 */
export interface ToolResultReplacementState {
  /** tool_use ids whose full result was sent. */
  kept: Set<string>;
  /** tool_use id → the exact content sent in place of the full result. */
  replaced: Map<string, string>;
  /** Set once the session's on-disk journal of replacements has been read into `replaced`. */
  journalRead?: boolean;
}

declare module "../tool/app-state.js" {
  interface AppState {
    /** The session's frozen per-message budget decisions (see src/results/budget.ts). */
    toolResultReplacements?: ToolResultReplacementState;
  }
}

export function createToolResultReplacementState(): ToolResultReplacementState {
  return { kept: new Set(), replaced: new Map() };
}

/** The session's replacement state, created on first use and kept in AppState from then on. */
export function toolResultReplacementStateOf(
  context: Pick<ToolUseContext, "getAppState" | "setAppState">,
): ToolResultReplacementState {
  const existing = context.getAppState().toolResultReplacements;
  if (existing) return existing;
  const created = createToolResultReplacementState();
  context.setAppState((prev) => ({ ...prev, toolResultReplacements: created }));
  return created;
}
