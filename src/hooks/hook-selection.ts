// Which hooks of an event run for one occurrence of it: the settings' hooks whose matcher accepts
// the event's match value and whose `if` holds, and the embedding program's callbacks whose
// matcher accepts it.
import { type HookEventName, isToolEvent } from "../config/hook-events.js";
import type { HookConfig, HookMatcherConfig, HooksConfig } from "../config/settings-schema.js";
import { fileMatcherAccepts } from "./file-matcher.js";
import { matcherAccepts } from "./hook-matchers.js";
import type { CallbackHooks } from "./hook-types.js";

/** The tool call a hook's `if` is tested against. */
export interface HookConditionCall {
  toolName: string;
  toolInput: Record<string, unknown>;
}

/** Whether a hook's `if` (permission-rule syntax) matches a tool call (src/permissions/rules/hook-condition.ts). */
export type HookConditionTest = (condition: string, call: HookConditionCall, cwd: string) => boolean;

export interface SelectedHooks {
  commands: HookConfig[];
  callbacks: Array<{ id: string; timeout?: number }>;
}

export function selectHooks(
  event: HookEventName,
  /** What the matchers are tested against (a tool's name, a source...); undefined: every hook runs. */
  matchValue: string | undefined,
  payload: Record<string, unknown>,
  sources: { config: HooksConfig; callbacks?: CallbackHooks; conditionHolds?: HookConditionTest; cwd: string },
): SelectedHooks {
  const matchers: HookMatcherConfig[] = sources.config[event] ?? [];
  // FileChanged matchers name files (`.envrc|.env`, `*.json`), not tools: no regular expressions.
  const accepts = (matcher: string | undefined) =>
    matchValue === undefined ||
    (event === "FileChanged" ? fileMatcherAccepts(matcher, matchValue) : matcherAccepts(matcher, matchValue));
  const call =
    matchValue !== undefined && typeof payload.tool_input === "object" && payload.tool_input !== null
      ? { toolName: matchValue, toolInput: payload.tool_input as Record<string, unknown> }
      : undefined;
  const commands = matchers
    .filter((m) => accepts(m.matcher))
    .flatMap((m) => m.hooks)
    .filter((hook) => hook.if === undefined || conditionHolds(hook.if, event, call, sources));
  const callbacks = (sources.callbacks?.[event] ?? [])
    .filter((m) => accepts(m.matcher))
    .flatMap((m) => m.callbackIds.map((id) => ({ id, timeout: m.timeout })));
  return { commands, callbacks };
}

/**
 * A hook's `if`: only tool events have a call to test (elsewhere such a hook never runs); the
 * test itself is the permission rules'. Without a test the hook runs: a guard that runs once too
 * often costs a process, one that stays quiet costs its check.
 */
function conditionHolds(
  condition: string,
  event: HookEventName,
  call: HookConditionCall | undefined,
  sources: { conditionHolds?: HookConditionTest; cwd: string },
): boolean {
  if (!isToolEvent(event) || !call) return false;
  return sources.conditionHolds?.(condition, call, sources.cwd) ?? true;
}
