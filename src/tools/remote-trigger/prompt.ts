// The model-facing text of RemoteTrigger.
export const REMOTE_TRIGGER_TOOL_NAME = "RemoteTrigger";

export const REMOTE_TRIGGER_PROMPT = `Manages triggers of the fleet (sessions run as jobs by \`warden fleet worker\` processes, on this or other machines). A trigger is a named job: a prompt, the repository it runs in, its model and permissions, and optionally a cron schedule on which the fleet runs it by itself, whether or not this session still runs.

- action "list": every trigger, with its schedule, when it runs next and its last job.
- action "get" (trigger_id): one trigger.
- action "create" (body): body.name and body.prompt are required; optional: repo (a local path or git URL; default this repository), model (default this session's), allowedTools and disallowedTools (permission rules, as in settings), permissionMode, maxTurns, maxBudgetUsd, cron (five fields, local time), enabled (default true).
- action "update" (trigger_id, body): the fields to change; "cron": null removes the schedule, "enabled": false pauses it.
- action "run" (trigger_id): submits its job now; the result names the job id (\`warden fleet status ID\`, \`warden fleet results ID\` show it).

A job runs headless on a worker: what its permissions leave open is denied, never asked.`;
