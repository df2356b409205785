export * from "./limits.js";
export * from "./preview.js";
export * from "./persist.js";
export * from "./persisted-output.js";
export * from "./limit-result.js";
export * from "./replacement-state.js";
export * from "./replacement-journal.js";
export * from "./budget.js";
