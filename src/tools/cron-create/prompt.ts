// The model-facing text of CronCreate.
export const CRON_CREATE_TOOL_NAME = "CronCreate";

export const CRON_CREATE_PROMPT = `Schedules a prompt to run later in this session, when a cron expression matches: the prompt then arrives as a message from the user.

- cron: five fields in local time, "minute hour day-of-month month day-of-week" ("*/10 * * * *" every ten minutes, "0 9 * * 1-5" at 9:00 on weekdays, "30 14 3 12 *" on 3 December at 14:30).
- recurring (default true): false runs it once, at the next match, then removes it.
- durable (default false): true also saves it in the project's .warden/scheduled_tasks.json, so it is scheduled again whenever a session starts in this project; otherwise it ends with this session.
- A session holds at most 50 tasks. List them with CronList, remove one with CronDelete.

Use it when the user asks for something to happen at a time or repeatedly ("check the deploy every 15 minutes"); write the prompt so it makes sense on its own when it arrives.`;
