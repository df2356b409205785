// The model-facing text of TaskStop.
export const TASK_STOP_TOOL_NAME = "TaskStop";

export const TASK_STOP_PROMPT = `Stops a running background task (a Bash command or an Agent started with run_in_background: true) and every process it started.

- task_id: the id the Bash or Agent call returned.

Use it when a dev server, watcher or other long-running command is no longer needed. Returns the task's final status; its output so far stays readable with TaskOutput.`;
