// What a slash command may do to the session it was typed in (CommandContext): run a prompt,
// switch to another session (/clear, /resume, /model), pick from a list, compact, change the mode,
// read the custom commands again, exit. The App gives its own state; the steps live here.
import type { PermissionMode } from "../../tool/permission-types.js";
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
      // The model and the mode are the person's choice for the whole sitting (/model, Shift+Tab),
      // not the conversation's: /clear, /resume and a plugin reload keep them.
      const next = await deps.openSession({ ...options, model: current.engine.modelLabel });
      keepMode(next, current.engine.getAppState().toolPermissionContext.mode);
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

/** Puts the new session in the mode the old one was in; a mode its settings now refuse is said. */
function keepMode(next: SessionHandle, mode: PermissionMode): void {
  if (next.engine.getAppState().toolPermissionContext.mode === mode) return;
  try {
    next.commands.setPermissionMode(mode);
  } catch (error) {
    next.notices.push(
      `warning: the ${mode} mode was not kept: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
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
