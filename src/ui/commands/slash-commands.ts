// The prompt's slash commands. Each one works on the App through a small set of verbs, so a
// command is a few lines that say what it does, and the App is not a list of special cases.
import type { PermissionMode } from "../../tool/permission-types.js";
import type { SessionHandle } from "../app/session-handle.js";
import type { TranscriptModel } from "../transcript/transcript-model.js";

export interface CommandContext {
  /** The session the command was typed in. */
  handle: SessionHandle;
  /** The session now (another one after switchSession). */
  current(): SessionHandle;
  transcript: TranscriptModel;
  /** Runs a prompt as if the person had typed it (custom commands, /init). */
  submitPrompt(prompt: string): void;
  /** Replaces the session (/clear, /resume, /model); the screen is cleared and redrawn. */
  switchSession(options: { resume?: string; rereadSettings?: boolean }): Promise<void>;
  /** Shows a list to pick from; resolves with the chosen value or undefined (ESC). */
  pick(title: string, choices: ReadonlyArray<{ label: string; value: string }>): Promise<string | undefined>;
  compact(instructions: string | undefined): Promise<void>;
  setMode(mode: PermissionMode): void;
  /** The user's and the project's commands and skills, read again from disk now. */
  customCommands(): Promise<readonly SlashCommand[]>;
  /** The terminal's width in columns now (what a command that lays out text wraps to). */
  columns(): number;
  exit(): void;
}

export interface SlashCommand {
  name: string;
  description: string;
  /** Shown after the name in /help. */
  argumentHint?: string;
  run(context: CommandContext, args: string): Promise<void> | void;
}

/** `/name args` → the name and the rest, or undefined when the text is not a command. */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: (match[1] as string).toLowerCase(), args: (match[2] ?? "").trim() };
}
