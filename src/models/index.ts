// What Warden knows of models: context windows, output limits, prices, and what a session spent.
export { budgetProblem } from "./budget.js";
export {
  ANTHROPIC_MODELS,
  type CatalogRow,
  DEEPSEEK_MODELS,
  type ModelLimits,
  type ModelPrice,
  OPENAI_MODELS,
} from "./catalog.js";
export { costOfUsage, type ModelUsageEntry, UsageLedger } from "./cost.js";
export {
  applyOverride,
  GENERIC_DEFAULT_LIMITS,
  type ModelInfo,
  type ModelOverride,
  modelInfoFor,
  normalizeModelId,
} from "./resolve.js";
