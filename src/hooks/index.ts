// Hooks configured in settings (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart,
// PreCompact, PostCompact).
export { HookRunner, hooksFromSettings, matcherAccepts, type PreToolUseResult } from "./hook-runner.js";
export { type PreToolUseHookDecision, runPostToolUseHooks, runPreToolUseHooks } from "./tool-hooks.js";
