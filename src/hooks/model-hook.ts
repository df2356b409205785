// `prompt` and `agent` hooks: a model judges the event. A prompt hook asks one question of the
// session's provider (its small fast model unless the hook names one); an agent hook starts a
// subagent with read-only tools that may look at the code before answering. Both answer
// {"ok": true} or {"ok": false, "reason": "..."}; "not ok" acts like a command's exit code 2 (the
// event is blocked, or for Stop the model goes on, with the reason). An answer that is not that
// JSON, a model error or a timeout is a failed hook.
import * as z from "zod";
import type { HookModelConfig } from "../config/settings-schema.js";
import type { HookOutcome } from "./hook-output.js";

/** Default seconds before a model hook counts as failed (Claude Code's: 30 for prompt, 60 for agent). */
export const MODEL_HOOK_TIMEOUT_S = { prompt: 30, agent: 60 } as const;

export interface HookModelRequest {
  system: string;
  prompt: string;
  /** A model of the session's provider; absent: the default for the hook's type. */
  model?: string;
  signal: AbortSignal;
}

/** What prompt and agent hooks need of the session; bound once the session exists (HookRunner.bindModels). */
export interface HookModels {
  /** One question, one answer (the text). */
  ask(request: HookModelRequest): Promise<string>;
  /** A subagent with read-only tools works on the prompt; its final text. */
  verify(request: HookModelRequest): Promise<string>;
}

const SYSTEM = `You evaluate one event of a coding agent's session for a hook its user configured.
The user's instruction says what to check. Answer with one JSON object and nothing else:
{"ok": true} when the check passes (the action may go ahead, or the agent may stop),
{"ok": false, "reason": "<what is wrong, addressed to the agent>"} when it does not.`;

const AGENT_SYSTEM = `${SYSTEM}
You may read the project's files with your tools before answering. Do not change anything.`;

const answerSchema = z.lazy(() => z.looseObject({ ok: z.boolean(), reason: z.string().optional() }));

/** The hook's prompt with the event's JSON in place of $ARGUMENTS (or after it when absent). */
export function hookPrompt(template: string, input: unknown): string {
  const json = JSON.stringify(input, null, 2);
  if (template.includes("$ARGUMENTS")) return template.replaceAll("$ARGUMENTS", json);
  return `${template}\n\nThe event:\n${json}`;
}

/** The {"ok", "reason"} object in a model's answer (it may wrap it in prose or a code fence). */
export function parseModelVerdict(text: string): { ok: boolean; reason?: string } | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    const parsed = answerSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function runModelHook(
  hook: HookModelConfig,
  input: unknown,
  models: HookModels | undefined,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<HookOutcome> {
  const name = `${hook.type} hook`;
  if (!models) {
    return { kind: "failed", hook: name, message: `${name} could not run: this session has no model for hooks` };
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const request: HookModelRequest = {
    system: hook.type === "agent" ? AGENT_SYSTEM : SYSTEM,
    prompt: hookPrompt(hook.prompt, input),
    signal,
    ...(hook.model !== undefined && { model: hook.model }),
  };
  let text: string;
  try {
    text = await (hook.type === "agent" ? models.verify(request) : models.ask(request));
    if (timeout.aborted) throw timeout.reason;
  } catch (error) {
    if (timeout.aborted) {
      const seconds = Math.round(options.timeoutMs / 1000);
      return { kind: "failed", hook: name, message: `${name} did not answer within ${seconds} s` };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "failed", hook: name, message: `${name} failed: ${message}` };
  }
  const verdict = parseModelVerdict(text);
  if (!verdict) {
    return {
      kind: "failed",
      hook: name,
      message: `${name} answered without {"ok": ...}: ${text.trim().slice(0, 200) || "(nothing)"}`,
    };
  }
  if (verdict.ok) return { kind: "success", hook: name, text: "" };
  return { kind: "blocking", hook: name, message: verdict.reason?.trim() || `the ${name} said no, without a reason` };
}
