import type { ToolResultReplacementState } from "../tool/app-state.js";
import type { ToolUseContext } from "../tool/types.js";

// The state itself (AppState.toolResultReplacements) is declared with AppState in src/tool/.
export type { ToolResultReplacementState };

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
