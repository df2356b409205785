// The words of a compaction: what the model is asked for when its conversation is summarised, and
// how the summary is handed back to it afterwards. Kept apart from the mechanics so the wording
// can be reviewed like any prompt.

export function summaryRequest(customInstructions: readonly string[]): string {
  const extra = customInstructions.filter((text) => text.trim() !== "");
  return [
    "Your context window is nearly full, so this conversation is about to be replaced by a summary that you write now. Whoever continues the work (you, from the summary alone) must be able to carry on without asking the user anything again. Do not call any tools: answer with the summary only, as plain text, under these headings:",
    "",
    "1. User requests: every request and correction the user made, in order, quoting their words where the exact wording matters; what they approved and what they rejected.",
    "2. Decisions: what was decided and why (approaches chosen, approaches dropped).",
    "3. Files: each file read, created or changed, with its exact path, what it is for in this work, what was changed in it and what is still to change. Include short code excerpts where the detail matters.",
    "4. Errors: errors and failed attempts met, and how each was fixed or worked around.",
    "5. Pending work: everything started or asked for and not finished.",
    "6. Next step: the very next thing to do, in enough detail to do it (the command, the file and the change).",
    ...(extra.length > 0 ? ["", "Also follow these instructions for the summary:", ...extra] : []),
  ].join("\n");
}

export function summaryMessageText(summary: string, continueWork: boolean): string {
  const then = continueWork
    ? "Continue the work from where it stopped, without asking the user to repeat anything and without mentioning the summary."
    : "The user may go on from here.";
  return `This session continues an earlier conversation that ran out of context and was summarised. The summary below is everything you have of it (files are as they are on disk: read them again when you need their content).\n\n<summary>\n${summary.trim()}\n</summary>\n\n${then}`;
}

export function reinjectedStateText(parts: readonly string[]): string {
  return `State of the session carried over from before the summary:\n\n${parts.join("\n\n")}`;
}
