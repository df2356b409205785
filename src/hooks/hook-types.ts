// What the hook runner answers per event, and the hooks that are functions of the embedding program
// (the Agent SDK's callbacks) rather than commands.
import type { HookEventName } from "../config/settings-schema.js";

/**
 * Hooks that are functions of the program embedding Warden (the Agent SDK's `hooks` option), not
 * commands: called with the same input a command gets on stdin, answering with the JSON a command
 * would print.
 */
export interface CallbackHookMatcher {
  matcher?: string;
  callbackIds: string[];
  /** Seconds, as for command hooks. */
  timeout?: number;
}
export type CallbackHooks = Partial<Record<HookEventName, CallbackHookMatcher[]>>;
export type HookCallbackRunner = (
  callbackId: string,
  input: Record<string, unknown>,
  toolUseId: string | undefined,
  signal?: AbortSignal,
) => Promise<unknown>;

/** A command hook starting or ending, for whoever shows hooks at work (stream-json's hook lines). */
export type HookLifecycleEvent =
  | { kind: "started"; hookId: string; hookName: string; event: HookEventName }
  /** Output while the hook runs: everything it has written so far. */
  | { kind: "progress"; hookId: string; hookName: string; event: HookEventName; stdout: string; stderr: string }
  | {
      kind: "response";
      hookId: string;
      hookName: string;
      event: HookEventName;
      stdout: string;
      stderr: string;
      exitCode: number | null;
      outcome: "success" | "error" | "cancelled";
    };

export interface UserPromptSubmitResult {
  blocked?: string;
  additionalContext: string[];
  errors: string[];
}

export interface StopResult {
  /** Set when a hook wants the model to keep going; the text tells it why. */
  continueWith?: string;
  errors: string[];
}

export interface SessionStartResult {
  additionalContext: string[];
  errors: string[];
  /** Variables the hooks wrote to CLAUDE_ENV_FILE: the session's Bash commands get them. */
  env?: Record<string, string>;
}
