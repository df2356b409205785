// The model-facing text of TeamDelete.
export const TEAM_DELETE_TOOL_NAME = "TeamDelete";

export const TEAM_DELETE_PROMPT = `Deletes the team you lead: its team file, mailboxes and shared task list. Teammates still running are stopped first (ask them to shut down with SendMessage {"type": "shutdown_request"} beforehand, so they finish cleanly). Afterwards the Task tools work on this session's own list again.`;
