// Hooks configured in settings (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart).
export { HookRunner, hooksFromSettings, matcherAccepts, type PreToolUseResult } from "./hook-runner.js";
export { runPostToolUseHooks, runPreToolUseHooks, type PreToolUseHookDecision } from "./tool-hooks.js";
export { PromptBlockedError, runSessionStartHooks, submitWithHooks } from "./session-hooks.js";
