// The model-facing text of SendUserMessage (the Brief tool).
export const BRIEF_TOOL_NAME = "SendUserMessage";

export const BRIEF_PROMPT = `Sends the user a short message while you work: it reaches them at once, before your turn ends. Write Markdown; say what they need to know in a few lines.

- status "normal" answers what they asked; "proactive" is an update they did not ask for (progress on a long task, something they should decide or look at).
- attachments: absolute paths of files to show with the message (a report, a screenshot, a diff you wrote).
- Do not repeat the message in your final answer, and do not use it for your own notes.`;
