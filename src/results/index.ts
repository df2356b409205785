export * from "./budget.js";
export * from "./limit-result.js";
export * from "./limits.js";
export * from "./persist.js";
export * from "./persisted-output.js";
export * from "./preview.js";
export * from "./replacement-journal.js";
export * from "./replacement-state.js";
