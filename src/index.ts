// Warden's public API: build an agent on these tools, this permission engine and this loop.
export * from "./messages/index.js";
export * from "./tool/index.js";
export * from "./providers/types.js";
export * from "./orchestration/run-tool-use.js";
export * from "./loop/index.js";
export { createReplayProvider } from "./providers/replay.js";
export * from "./session/transcript.js";
export * from "./session/transcript-reader.js";
export { loadMemoryFiles, type MemoryFile, type MemoryScope } from "./config/memory.js";
