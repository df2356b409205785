// Hooks configured in settings: the events of HOOK_EVENTS (config/settings-schema.ts), from
// PreToolUse to SessionEnd and Notification.
export { hooksFromSettings, matcherAccepts } from "./hook-matchers.js";
export { HookRunner, type PreToolUseResult } from "./hook-runner.js";
export { type PreToolUseHookDecision, runPostToolUseHooks, runPreToolUseHooks } from "./tool-hooks.js";
