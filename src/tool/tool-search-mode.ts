// Which tools the session defers behind ToolSearch (see ./deferred.ts), as settings and the
// environment choose it. Its own file because AppState holds the mode and must not import the
// deferral logic (which imports the Tool type, which imports AppState).

/**
 * defer: deferrable tools are always deferred (Claude Code's behaviour with MCP tools).
 * never: every schema is sent up front and ToolSearch is not offered.
 * auto:  defer only when the deferrable schemas would take more than AUTO_DEFER_CONTEXT_SHARE (deferred.ts) of
 *        the model's context window.
 */
export type ToolSearchMode = "defer" | "never" | "auto";

export const TOOL_SEARCH_MODES: readonly ToolSearchMode[] = ["defer", "never", "auto"];

export function isToolSearchMode(value: unknown): value is ToolSearchMode {
  return typeof value === "string" && (TOOL_SEARCH_MODES as readonly string[]).includes(value);
}

/**
 * The mode in force: env WARDEN_TOOL_SEARCH, then the settings value, then defer. An unknown value
 * in either place is ignored rather than guessed at (defer is the safe, cheap default).
 */
export function resolveToolSearchMode(settingsValue?: unknown, env: NodeJS.ProcessEnv = process.env): ToolSearchMode {
  const fromEnv = env.WARDEN_TOOL_SEARCH?.trim().toLowerCase();
  if (isToolSearchMode(fromEnv)) return fromEnv;
  if (isToolSearchMode(settingsValue)) return settingsValue;
  return "defer";
}
