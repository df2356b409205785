// The security validators: checks for text that bash and the analysis could read differently
// (obfuscated flags, quote tricks, control characters...) or that no analysis can vouch for.

export { EARLY_VALIDATORS, MAIN_VALIDATORS, PRE_CHECKS, runValidators, type ValidationOutcome } from "./pipeline.js";
export { isOutputRedirect } from "./structure.js";
export type { Finding, ValidationInput, Validator, ValidatorOutcome } from "./types.js";
