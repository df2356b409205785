// A USD budget is only a promise when the spending can be measured: a model without a known price
// would let a budget run forever, so such a session is refused before it starts (fail closed).
import type { ModelInfo } from "./resolve.js";

/** Why `maxBudgetUsd` cannot be kept for this model, or undefined when it can. */
export function budgetProblem(maxBudgetUsd: number, info: ModelInfo, label: string): string | undefined {
  if (!(maxBudgetUsd > 0) || !Number.isFinite(maxBudgetUsd)) {
    return `the USD budget must be a positive number, not ${maxBudgetUsd}`;
  }
  if (!info.price) {
    return `cannot keep a USD budget for ${label}: its price is unknown. Give it one in settings ("models": {"${label}": {"price": {"input": USD_PER_MILLION_TOKENS, "output": USD_PER_MILLION_TOKENS}}}) or drop the budget.`;
  }
  return undefined;
}
