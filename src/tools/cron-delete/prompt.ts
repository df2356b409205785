// The model-facing text of CronDelete.
export const CRON_DELETE_TOOL_NAME = "CronDelete";

export const CRON_DELETE_PROMPT = `Removes a scheduled task by its id (as CronCreate and CronList give it): it will not run again, and a durable one is removed from the project's .warden/scheduled_tasks.json.`;
