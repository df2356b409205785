export * from "./abort-tree.js";
export * from "./concurrency-limit.js";
export * from "./interrupts.js";
export * from "./partition.js";
export * from "./run-tool-use.js";
export * from "./run-tools.js";
export * from "./streaming-executor.js";
export * from "./synthetic-results.js";
