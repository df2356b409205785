// Attachments: what the model is told before a request besides the conversation itself (a file
// changed on disk, a folder's own AGENTS.md, the date, its context and budget use, new tools, hook
// context, the todo list, plan mode...). Each kind is a source the attachment module asks before
// every model request (src/loop/reminders.ts keeps the list, src/context/attachments/ the built-in
// kinds); what a source returns goes into the conversation as a meta user message, its text
// wrapped in <system-reminder>. A tool with reminders of its own brings its sources with it
// (Tool.attachments) instead of the loop knowing about it. The types (AttachmentSource,
// AttachmentContext, AttachmentItem) are in ./types.ts beside Tool: a source sees the
// ToolUseContext and a tool carries sources.

/** The <system-reminder> wrapping every attachment text gets (the model is taught to read it as context). */
export function wrapSystemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}
