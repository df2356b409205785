// The model-facing text of CronList.
export const CRON_LIST_TOOL_NAME = "CronList";

export const CRON_LIST_PROMPT = `Lists this session's scheduled tasks: id, cron expression, whether it recurs or is durable, when it runs next, and its prompt.`;
