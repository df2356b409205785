// PLACEHOLDER until the ToolSearch issue replaces it: no tool is deferred yet.
import type { AnyTool } from "./types.js";

export function isDeferredTool(_tool: AnyTool): boolean {
  return false;
}

/**
 * Splits a pool into the tools whose schemas are sent and the deferred ones (sent by name only).
 * `loadedNames` are deferred tools the model has already found with ToolSearch.
 */
export function splitDeferredTools(
  tools: readonly AnyTool[],
  loadedNames: ReadonlySet<string>,
): { loaded: AnyTool[]; deferred: AnyTool[] } {
  const loaded: AnyTool[] = [];
  const deferred: AnyTool[] = [];
  for (const tool of tools) (isDeferredTool(tool) && !loadedNames.has(tool.name) ? deferred : loaded).push(tool);
  return { loaded, deferred };
}
