// Deferred tools: tools whose schemas are not sent until the model asks for them with ToolSearch.
// Every schema in a request costs tokens on every turn; a project with a few MCP servers easily
// brings fifty tools the session never uses. Deferring them keeps the first request small, and the
// token cost grows with the tools actually used instead of the tools that exist.
import { toolInputJSONSchema } from "./schema.js";
import { resolveToolSearchMode, type ToolSearchMode } from "./tool-search-mode.js";
import type { AnyTool } from "./types.js";

export const TOOL_SEARCH_TOOL_NAME = "ToolSearch";

/** auto mode's threshold: the reference's 10% of the context window. */
export const AUTO_DEFER_CONTEXT_SHARE = 0.1;
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;

/**
 * Whether a tool may be deferred at all, in the reference's order: alwaysLoad wins over
 * everything; MCP tools are deferred; ToolSearch itself never is (it is how the others are found);
 * any other tool only when it says shouldDefer.
 */
export function isDeferredTool(tool: AnyTool): boolean {
  if (tool.alwaysLoad === true) return false;
  if (tool.mcpInfo) return true;
  if (tool.name === TOOL_SEARCH_TOOL_NAME) return false;
  return tool.shouldDefer === true;
}

export interface DeferralOptions {
  /** Defaults to resolveToolSearchMode() (env, then defer). */
  mode?: ToolSearchMode;
  /** The model's context window, for auto mode. */
  contextWindowTokens?: number;
}

/** Rough token cost of sending a tool's schema: chars / 4 of its JSON schema and description. */
export function estimateToolSchemaTokens(tool: AnyTool): number {
  const schemaChars = JSON.stringify(toolInputJSONSchema(tool)).length;
  const descriptionChars = (tool.staticDescription ?? tool.searchHint ?? "").length;
  return Math.ceil((schemaChars + descriptionChars + tool.name.length) / 4);
}

function deferralApplies(tools: readonly AnyTool[], options: DeferralOptions | undefined): boolean {
  const mode = options?.mode ?? resolveToolSearchMode();
  if (mode === "never") return false;
  if (mode === "defer") return true;
  const window = options?.contextWindowTokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS;
  const deferrableTokens = tools.filter(isDeferredTool).reduce((sum, t) => sum + estimateToolSchemaTokens(t), 0);
  return deferrableTokens > window * AUTO_DEFER_CONTEXT_SHARE;
}

/**
 * Splits a pool into the tools whose schemas are sent and the deferred ones (sent by name only).
 * `loadedNames` are deferred tools the model has already found with ToolSearch. When nothing is
 * deferrable (or the mode sends everything), ToolSearch is dropped: it would only cost tokens.
 * The result depends only on the pool, the loaded names and the mode, never on timing, so the
 * request prefix stays byte-stable from turn to turn.
 */
export function splitDeferredTools(
  tools: readonly AnyTool[],
  loadedNames: ReadonlySet<string>,
  options?: DeferralOptions,
): { loaded: AnyTool[]; deferred: AnyTool[] } {
  const defer = deferralApplies(tools, options) && tools.some(isDeferredTool);
  const loaded: AnyTool[] = [];
  const deferred: AnyTool[] = [];
  for (const tool of tools) {
    if (tool.name === TOOL_SEARCH_TOOL_NAME && !defer) continue;
    (defer && isDeferredTool(tool) && !loadedNames.has(tool.name) ? deferred : loaded).push(tool);
  }
  return { loaded, deferred };
}

/** The names recorded in AppState as loaded by ToolSearch, as the set splitDeferredTools takes. */
export function loadedDeferredToolNames(state: { loadedDeferredTools?: string[] }): Set<string> {
  return new Set(state.loadedDeferredTools ?? []);
}

/** Adds names to the loaded list, keeping first-found order and no duplicates. */
export function withLoadedDeferredTools<S extends { loadedDeferredTools?: string[] }>(
  state: S,
  names: readonly string[],
): S {
  const current = state.loadedDeferredTools ?? [];
  const added = names.filter((n) => !current.includes(n));
  if (added.length === 0) return state;
  return { ...state, loadedDeferredTools: [...current, ...added] };
}

/**
 * The system-prompt section naming the deferred tools. MCP tools are grouped under their server
 * prefix so that sixty tools cost about a kilobyte instead of repeating `mcp__server__` sixty
 * times; a tool's search hint follows its name in parentheses. Empty when nothing is deferred.
 */
export function renderDeferredToolsList(deferred: readonly AnyTool[]): string {
  if (deferred.length === 0) return "";
  const builtIn: string[] = [];
  const byServer = new Map<string, string[]>();
  for (const tool of [...deferred].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const hint = tool.searchHint ? ` (${tool.searchHint})` : "";
    const prefix = tool.mcpInfo ? `mcp__${tool.mcpInfo.serverName}__` : undefined;
    if (prefix && tool.name.startsWith(prefix) && tool.name.length > prefix.length) {
      // The rest of the model-facing name, which may differ from the server's own tool name.
      const list = byServer.get(prefix) ?? [];
      list.push(`${tool.name.slice(prefix.length)}${hint}`);
      byServer.set(prefix, list);
    } else {
      builtIn.push(`${tool.name}${hint}`);
    }
  }
  const lines = [
    "<deferred-tools>",
    `Load these with ${TOOL_SEARCH_TOOL_NAME} before calling them (full name = prefix + name):`,
  ];
  if (builtIn.length) lines.push(builtIn.join(", "));
  for (const [prefix, names] of byServer) lines.push(`${prefix}: ${names.join(", ")}`);
  lines.push("</deferred-tools>");
  return lines.join("\n");
}
