// Claude Code's thinking flags, as the Agent SDK passes them: `--max-thinking-tokens N` (a budget;
// 0 turns thinking off), `--thinking adaptive|enabled|disabled` and `--thinking-display
// summarized|omitted`. Read into one setting the providers understand (src/providers/types.ts).
import type { ThinkingDisplay, ThinkingSetting } from "../../providers/types.js";

const THINKING_TYPES = ["adaptive", "enabled", "disabled"] as const;
const DISPLAYS: readonly ThinkingDisplay[] = ["summarized", "omitted"];
/** The budget `--thinking enabled` gets without `--max-thinking-tokens`. */
export const DEFAULT_THINKING_BUDGET = 10_000;

export interface ThinkingFlags {
  maxThinkingTokens?: string;
  thinking?: string;
  display?: string;
}

/** The setting the flags name, undefined when none was given, or a usage error's message. */
export function thinkingFromFlags(flags: ThinkingFlags): { setting?: ThinkingSetting; error?: string } {
  let budget: number | undefined;
  if (flags.maxThinkingTokens !== undefined) {
    budget = Number(flags.maxThinkingTokens);
    if (!Number.isInteger(budget) || budget < 0 || flags.maxThinkingTokens.trim() === "") {
      return {
        error: `--max-thinking-tokens must be a whole number >= 0, not ${JSON.stringify(flags.maxThinkingTokens)}`,
      };
    }
  }
  const type = flags.thinking;
  if (type !== undefined && !(THINKING_TYPES as readonly string[]).includes(type)) {
    return { error: `--thinking must be one of ${THINKING_TYPES.join(", ")}, not ${JSON.stringify(type)}` };
  }
  const display = flags.display;
  if (display !== undefined && !(DISPLAYS as readonly string[]).includes(display)) {
    return { error: `--thinking-display must be one of ${DISPLAYS.join(", ")}, not ${JSON.stringify(display)}` };
  }
  const shown = display === undefined ? {} : { display: display as ThinkingDisplay };
  if (type === "disabled" || budget === 0) return { setting: { type: "disabled" } };
  if (type === "adaptive" && budget === undefined) return { setting: { type: "adaptive", ...shown } };
  if (type === undefined && budget === undefined) return {};
  return { setting: { type: "enabled", budgetTokens: budget ?? DEFAULT_THINKING_BUDGET, ...shown } };
}

/** The Agent SDK's set_max_thinking_tokens: a budget, 0 for none, or null for the session's own setting. */
export function thinkingFromBudget(
  maxThinkingTokens: unknown,
  initial: ThinkingSetting | undefined,
): ThinkingSetting | undefined {
  if (maxThinkingTokens === null || maxThinkingTokens === undefined) return initial;
  if (typeof maxThinkingTokens !== "number" || !Number.isInteger(maxThinkingTokens) || maxThinkingTokens < 0) {
    throw new Error(
      `set_max_thinking_tokens: max_thinking_tokens must be a whole number >= 0 or null, not ${JSON.stringify(maxThinkingTokens)}`,
    );
  }
  if (maxThinkingTokens === 0) return { type: "disabled" };
  const display = initial && initial.type !== "disabled" ? initial.display : undefined;
  return { type: "enabled", budgetTokens: maxThinkingTokens, ...(display && { display }) };
}
