// The model-facing text of Sleep.
export const SLEEP_TOOL_NAME = "Sleep";

export const SLEEP_PROMPT = `Waits, doing nothing, for up to the given number of seconds, and wakes early when something arrives: a message from the user, a background command that finished, a scheduled prompt. Use it when there is nothing to do until then (waiting for a build or a server you started in the background); prefer it to \`sleep\` in Bash, which cannot wake early.

The result says how long it slept and why it woke.`;
