// The model-facing text of ToolSearch. Short on purpose: it is sent on every request whenever any
// tool is deferred, so each sentence here is paid for many times over.

export const TOOL_SEARCH_DESCRIPTION = `Loads deferred tools (named in <deferred-tools>): their descriptions and parameters are unknown to you until loaded, so load a tool before calling it. Query forms: "select:A,B" loads those exact tools (best when you know the names); "mcp__server" loads all tools of that server; keywords ("github issue"; "+slack send" requires "slack") load the best matches. Loaded tools stay callable from your next turn on.`;
