// What a slash command may do to the session it was typed in (CommandContext): run a prompt,
// switch to another session (/clear, /resume, /model), pick from a list, compact, change the mode,
// read the custom commands again, exit. The App gives its own state; the steps live here.
import type { CommandContext, SlashCommand } from "../commands/slash-commands.js";
import type { TranscriptModel } from "../transcript/transcript-model.js";
import type { OpenSession, SessionHandle } from "./session-handle.js";

export interface CommandContextDeps
  extends Pick<CommandContext, "current" | "transcript" | "pick" | "setMode" | "exit" | "submitPrompt" | "columns"> {
  openSession: OpenSession;
  /** Clears the screen and the transcript and shows the new session (after the old one closed). */
  showSession(next: SessionHandle): void;
  /** Marks a step that holds the prompt (a compaction) as running or done. */
  setBusy(busy: boolean): void;
  customCommands(): Promise<readonly SlashCommand[]>;
}

export function sessionCommandContext(current: SessionHandle, deps: CommandContextDeps): CommandContext {
  return {
    handle: current,
    current: deps.current,
    transcript: deps.transcript,
    submitPrompt: deps.submitPrompt,
    switchSession: async (options) => {
      const next = await deps.openSession(options);
      await current.close();
      deps.showSession(next);
    },
    pick: deps.pick,
    compact: async (instructions) => {
      deps.setBusy(true);
      try {
        await compactInto(current, instructions, deps.transcript);
      } finally {
        deps.setBusy(false);
      }
    },
    setMode: deps.setMode,
    customCommands: deps.customCommands,
    columns: deps.columns,
    exit: deps.exit,
  };
}

/** Runs a compaction, its steps shown in the transcript as they come. */
async function compactInto(current: SessionHandle, instructions: string | undefined, transcript: TranscriptModel) {
  const steps = current.compact(instructions);
  while (true) {
    const step = await steps.next();
    if (step.done) {
      if (!step.value.ok) transcript.addNotice(`Compaction failed: ${step.value.reason}`, "error");
      break;
    }
    transcript.apply(step.value);
  }
}
