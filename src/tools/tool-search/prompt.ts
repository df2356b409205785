// The model-facing text of ToolSearch. Short on purpose: it is sent on every request whenever any
// tool is deferred, so each sentence here is paid for many times over.

export const TOOL_SEARCH_DESCRIPTION = `Loads deferred tools (listed by name in <deferred-tools>) so you can call them. Their schemas are not available until loaded; calling an unloaded tool fails.

Query forms:
- "select:Name1,Name2": load these exact tools (preferred when you know the names).
- "mcp__server": every tool of that MCP server.
- Keywords, e.g. "github issue": best matches by name, search hint and description; prefix a word with + to require it ("+slack send").

The result shows each tool's description and parameters. Loaded tools stay available for the rest of the session, callable from your next turn on.`;
