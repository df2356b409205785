// What a hook said, read the way Claude Code users write hooks: exit 0 is success (stdout may hold
// JSON with a decision), exit 2 blocks with stderr as the reason, anything else is a failure.
import * as z from "zod";
import type { HookCommandResult } from "./run-command.js";

const hookJsonSchema = z.lazy(() =>
  z.looseObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(["approve", "block"]).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .looseObject({
        hookEventName: z.string().optional(),
        permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().optional(),
        /** WorktreeCreate: where the hook made the worktree. */
        worktreePath: z.string().optional(),
        /** SessionStart, CwdChanged, FileChanged: the files FileChanged hooks watch from now on. */
        watchPaths: z.array(z.string()).optional(),
        /** Elicitation, ElicitationResult: the answer a hook gives (or puts in place of the user's). */
        action: z.enum(["accept", "decline", "cancel"]).optional(),
        content: z.record(z.string(), z.unknown()).optional(),
        /** PermissionDenied: the model may try the denied call again (another way, or once things changed). */
        retry: z.boolean().optional(),
        /** MessageDisplay: what is shown in place of the text (empty: nothing), the message itself unchanged. */
        displayContent: z.string().optional(),
      })
      .optional(),
  }),
);
export type HookJsonOutput = z.infer<typeof hookJsonSchema>;

export type HookOutcome =
  | { kind: "success"; hook: string; json?: HookJsonOutput; text: string }
  /** Exit code 2: the hook refuses; stderr says why. */
  | { kind: "blocking"; hook: string; message: string }
  /** The hook crashed, hung, could not start, or printed broken JSON. */
  | { kind: "failed"; hook: string; message: string };

export function interpretHookResult(hook: string, result: HookCommandResult, timeoutMs: number): HookOutcome {
  if (result.spawnError)
    return { kind: "failed", hook, message: `hook "${hook}" could not start: ${result.spawnError}` };
  if (result.timedOut) {
    return {
      kind: "failed",
      hook,
      message: `hook "${hook}" did not finish within ${Math.round(timeoutMs / 1000)} s and was killed`,
    };
  }
  if (result.signal) return { kind: "failed", hook, message: `hook "${hook}" was killed by ${result.signal}` };
  if (result.exitCode === 2) {
    const message = result.stderr.trim() || `hook "${hook}" blocked this (exit code 2) without saying why`;
    return { kind: "blocking", hook, message };
  }
  if (result.exitCode !== 0) {
    const detail = result.stderr.trim() ? `: ${result.stderr.trim()}` : "";
    return { kind: "failed", hook, message: `hook "${hook}" failed with exit code ${result.exitCode}${detail}` };
  }
  const text = result.stdout.trim();
  if (!text.startsWith("{")) return { kind: "success", hook, text };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: "failed", hook, message: `hook "${hook}" printed invalid JSON: ${(error as Error).message}` };
  }
  const parsed = hookJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      kind: "failed",
      hook,
      message: `hook "${hook}" printed JSON of the wrong shape: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
    };
  }
  return { kind: "success", hook, json: parsed.data, text: "" };
}

/**
 * The transcript's record of one event's hooks (a `hook_outcome` line beside Claude Code's own;
 * its readers skip types they do not know): which hooks ran and what each said, so a reader of the
 * session (warden view) sees why a call was refused or what context a hook added.
 */
export interface HookOutcomeEntry {
  type: "hook_outcome";
  hookEvent: string;
  toolName?: string;
  toolUseId?: string;
  outcomes: { hook: string; kind: HookOutcome["kind"]; said: string }[];
  [key: string]: unknown;
}

export function hookOutcomeEntry(
  event: string,
  toolName: string | undefined,
  payload: Record<string, unknown>,
  outcomes: readonly HookOutcome[],
): HookOutcomeEntry {
  const entry: HookOutcomeEntry = {
    type: "hook_outcome",
    hookEvent: event,
    outcomes: outcomes.map((o) => ({
      hook: o.hook,
      kind: o.kind,
      said: o.kind === "success" ? o.text || (o.json ? JSON.stringify(o.json) : "") : o.message,
    })),
  };
  if (toolName !== undefined) entry.toolName = toolName;
  if (typeof payload.tool_use_id === "string") entry.toolUseId = payload.tool_use_id;
  return entry;
}
