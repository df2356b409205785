// The model-facing text of TeamCreate.
export const TEAM_CREATE_TOOL_NAME = "TeamCreate";

export const TEAM_CREATE_PROMPT = `Creates a team that you lead: teammates that work in parallel, each with its own context and tools, sharing one task list and talking through SendMessage.

Use a team for work that splits into parts several agents can do at once and that needs them to coordinate; for one self-contained task use Agent without a team.
After creating it:
1. Put the work on the shared list (TaskCreate; dependencies with TaskUpdate addBlockedBy).
2. Start each teammate with Agent, giving team_name, a short name and its instructions (it knows nothing of this conversation).
3. Teammates claim tasks (TaskUpdate status in_progress sets the owner), report with SendMessage and go idle; their messages reach you at your next turn.
4. When the work is done, send each teammate {"type": "shutdown_request"} with SendMessage, then TeamDelete.
You lead one team at a time.`;
