// The model-facing text of TaskOutput.
export const TASK_OUTPUT_TOOL_NAME = "TaskOutput";

export const TASK_OUTPUT_PROMPT = `Reads the output of a background task (a Bash command or an Agent started with run_in_background: true).

- task_id: the id the Bash or Agent call returned.
- block (default true): wait until the task finishes or the timeout passes, whichever comes first. Pass block: false to look at the output so far without waiting.
- timeout (milliseconds, default 30000, max 600000): how long to wait when block is true.

Returns the task's status (running, completed, failed, killed), its exit code once it ended, and its output (stdout and stderr together). Very long output is cut to its last part; the full output stays in the file the result names.
You are notified when a background task ends, so there is no need to poll it in a loop.`;
