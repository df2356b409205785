// Hooks configured in settings (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart,
// PreCompact, PostCompact).
export { hooksFromSettings, matcherAccepts } from "./hook-matchers.js";
export { HookRunner, type PreToolUseResult } from "./hook-runner.js";
export { type PreToolUseHookDecision, runPostToolUseHooks, runPreToolUseHooks } from "./tool-hooks.js";
