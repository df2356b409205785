// The model-facing text of TaskOutput.
export const TASK_OUTPUT_TOOL_NAME = "TaskOutput";

export const TASK_OUTPUT_PROMPT = `Reads the output of a background task (a Bash command or an Agent started with run_in_background: true).

- task_id: the id the Bash or Agent call returned.
- block (default true): wait until the task ends or timeout (ms, default 30000) passes; block: false reads the output so far.

Returns the task's status (running, completed, failed, killed), its exit code once it ended, and its output (stdout and stderr together). Long output is cut to its end; the full output stays in the file named. You are told when a task ends: do not poll.`;
