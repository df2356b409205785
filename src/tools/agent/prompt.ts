// The model-facing text of the Agent tool. The agent types are not listed here but in the
// agent_listing reminder (./listing.ts), so a change to them leaves the cached prefix alone.
export const AGENT_TOOL_NAME = "Agent";

export const AGENT_PROMPT = `Starts a subagent: an agent with its own context and tools that does one task and returns one final report. Only you see the report, not its steps: pass on what matters. Agent types (subagent_type) are listed in a system reminder.

- Use it for broad searches and multi-step work; for a known file use Read, Glob or Grep.
- The agent knows nothing of this conversation: say what to do and what to return.
- Start independent agents together (several calls in one message).
- run_in_background returns a task id at once; you are told when it ends.`;
