// The session-level hooks around one submitted prompt: Setup and SessionStart (once), UserPromptSubmit
// (may block the prompt or add context), Stop (may send the model back to work, with a reason).

import type { HookRunner, SessionEndReason, SetupTrigger } from "../hooks/hook-runner.js";
import type { SessionStartResult } from "../hooks/hook-types.js";
import { queueReminders } from "../hooks/queue-reminders.js";
import { type AssistantMessage, userText } from "../messages/types.js";
import type { AppState } from "../tool/app-state.js";
import type { SessionChannels } from "../tool/session-channels.js";
import type { QueryEvent, TerminalEvent } from "./events.js";

/** What the hooks need of a session: the SessionEngine fits. */
export interface HookableSession {
  submitMessage(prompt?: string): AsyncGenerator<QueryEvent, TerminalEvent>;
  setAppState(update: (prev: AppState) => AppState): void;
  readonly channels: SessionChannels;
}

/** A UserPromptSubmit hook refused the prompt; nothing was sent to the model. */
export class PromptBlockedError extends Error {
  constructor(reason: string) {
    super(`the prompt was blocked by a UserPromptSubmit hook: ${reason}`);
    this.name = "PromptBlockedError";
  }
}

/** The `attachment` of the message that sends the model back with a Stop hook's reason. */
export const STOP_HOOK_FEEDBACK = "stop_hook_feedback";

/** How that message begins; a transcript keeps no attachment for it, so a resumed one is known by this. */
export const STOP_HOOK_FEEDBACK_PREFIX = "A Stop hook asked you to continue: ";

/** A Stop hook can keep a session going; past this many rounds it is ignored, to end loops. */
export const MAX_STOP_HOOK_CONTINUATIONS = 8;

export async function runSessionStartHooks(
  session: HookableSession,
  hooks: HookRunner | undefined,
  source: "startup" | "resume",
  onWarning: (message: string) => void,
): Promise<void> {
  if (!hooks?.has("SessionStart")) return;
  applyStartResult(session, "SessionStart", await hooks.sessionStart(source), onWarning);
}

/**
 * --init or --maintenance: the Setup hooks run before SessionStart's, their context queued for
 * the model and what they wrote to CLAUDE_ENV_FILE given to its Bash commands.
 */
export async function runSetupHooks(
  session: HookableSession,
  hooks: HookRunner | undefined,
  trigger: SetupTrigger,
  onWarning: (message: string) => void,
): Promise<void> {
  if (!hooks?.has("Setup")) return;
  applyStartResult(session, "Setup", await hooks.setup(trigger), onWarning);
}

function applyStartResult(
  session: HookableSession,
  event: "SessionStart" | "Setup",
  result: SessionStartResult,
  onWarning: (message: string) => void,
): void {
  for (const error of result.errors) onWarning(error);
  const env = result.env;
  if (env) {
    // The shell's environment is captured once; dropping the capture makes the next command see these.
    session.setAppState((state) => ({
      ...state,
      toolEnv: { ...state.toolEnv, ...env },
      bashShellSnapshot: undefined,
    }));
  }
  queueReminders(
    session,
    result.additionalContext.map((text) => `${event} hook context: ${text}`),
  );
}

/** The session is ending: SessionEnd hooks run, bounded (see HookRunner.sessionEnd); nothing waits on their answer. */
export async function runSessionEndHooks(
  hooks: HookRunner | undefined,
  reason: SessionEndReason,
  onWarning: (message: string) => void,
): Promise<void> {
  if (!hooks?.has("SessionEnd")) return;
  const result = await hooks.sessionEnd(reason);
  for (const error of result.errors) onWarning(error);
}

/**
 * Submits a prompt with its hooks: UserPromptSubmit first (throws PromptBlockedError when a hook
 * blocks it), then the loop, then Stop hooks, which may send the model back with their reason.
 * Without a prompt (an idle session's wake, see wake.ts) no UserPromptSubmit hook runs: nobody
 * submitted anything.
 */
export async function* submitWithHooks(
  session: HookableSession,
  prompt: string | undefined,
  hooks: HookRunner | undefined,
  onWarning: (message: string) => void,
): AsyncGenerator<QueryEvent, TerminalEvent | undefined> {
  if (prompt !== undefined && hooks?.has("UserPromptSubmit")) {
    const result = await hooks.userPromptSubmit(prompt);
    for (const error of result.errors) onWarning(error);
    if (result.blocked !== undefined) {
      session.channels.hookMessages.drain(); // the prompt is refused with its reason; nothing follows
      throw new PromptBlockedError(result.blocked);
    }
    queueReminders(
      session,
      result.additionalContext.map((text) => `UserPromptSubmit hook context: ${text}`),
    );
  }
  let next: string | undefined = prompt;
  let terminal: TerminalEvent | undefined;
  let lastText = "";
  for (let round = 0; ; round++) {
    for await (const event of session.submitMessage(next)) {
      if (event.type === "terminal") terminal = event;
      if (event.type === "assistant") lastText = assistantText(event.message);
      // A hook's notice follows the event it ran beside (a call, its result), and comes before the end.
      if (event.type === "terminal") yield* hookNotices(session);
      yield event;
      if (event.type !== "terminal") yield* hookNotices(session);
    }
    next = undefined;
    if (terminal && (terminal.reason === "model_error" || terminal.reason === "prompt_too_long")) {
      if (hooks?.has("StopFailure")) {
        const failure = await hooks.stopFailure(terminal.error ?? terminal.reason, lastText);
        for (const error of failure.errors) onWarning(error);
      }
      break;
    }
    if (!hooks?.has("Stop") || terminal?.reason !== "completed") break;
    if (round >= MAX_STOP_HOOK_CONTINUATIONS) {
      onWarning(`Stop hooks asked to continue ${round} times in a row; stopping anyway`);
      break;
    }
    const stop = await hooks.stop(round > 0);
    for (const error of stop.errors) onWarning(error);
    if (stop.continueWith === undefined) break;
    next = `${STOP_HOOK_FEEDBACK_PREFIX}${stop.continueWith}`;
    // The feedback is a message of the conversation the person did not type: shown as Claude Code
    // streams its own (a meta user line), so a stream-json reader sees why the model went on, and
    // tagged so that the UI shows it to the person too.
    yield { type: "user", message: { ...userText(next, true), attachment: STOP_HOOK_FEEDBACK } };
  }
  yield* hookNotices(session);
  return terminal;
}

/** What hooks said for the person (`systemMessage`) since the last look, as notices. */
function* hookNotices(session: HookableSession): Generator<QueryEvent> {
  for (const message of session.channels.hookMessages.drain()) yield { type: "notice", message };
}

function assistantText(message: AssistantMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
