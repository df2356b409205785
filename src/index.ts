// Warden's public API: build an agent on these tools, this permission engine and this loop.
export * from "./messages/index.js";
export * from "./tool/index.js";
export * from "./providers/types.js";
export * from "./orchestration/run-tool-use.js";
