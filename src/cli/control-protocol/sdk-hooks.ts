// The SDK's hooks: its initialize names, per event, matchers with callback ids; each time such a
// hook fires, the SDK is asked to run the function behind the id (`hook_callback`) and its answer is
// read as a command hook's JSON output would be.
import { HOOK_EVENTS, type HookEventName } from "../../config/settings-schema.js";
import type { CallbackHookMatcher, CallbackHooks, HookCallbackRunner } from "../../hooks/hook-types.js";
import type { ControlChannel, JsonObject } from "./channel.js";

export function callbackHooksFrom(raw: unknown): CallbackHooks | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const hooks: CallbackHooks = {};
  for (const [event, matchers] of Object.entries(raw as JsonObject)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event) || !Array.isArray(matchers)) continue;
    const parsed: CallbackHookMatcher[] = [];
    for (const matcher of matchers as JsonObject[]) {
      const ids = Array.isArray(matcher?.hookCallbackIds) ? matcher.hookCallbackIds.map(String) : [];
      if (ids.length === 0) continue;
      parsed.push({
        ...(typeof matcher.matcher === "string" && { matcher: matcher.matcher }),
        callbackIds: ids,
        ...(typeof matcher.timeout === "number" && { timeout: matcher.timeout }),
      });
    }
    if (parsed.length > 0) hooks[event as HookEventName] = parsed;
  }
  return Object.keys(hooks).length > 0 ? hooks : undefined;
}

export function hookCallbackRunner(channel: ControlChannel): HookCallbackRunner {
  return (callbackId, input, toolUseId, signal) =>
    channel.request(
      {
        subtype: "hook_callback",
        callback_id: callbackId,
        input,
        ...(toolUseId !== undefined && { tool_use_id: toolUseId }),
      },
      signal,
    );
}
