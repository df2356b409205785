// Warden's public API: build an agent on these tools, this permission engine and this loop.

// The Agent SDK's API (query, tool, createSdkMcpServer) in one process. The loop's own query()
// is exported as agentLoop (an explicit export wins over the loop's `export *`).
export * from "./cli/library/index.js";
export { query } from "./cli/library/index.js";
export { loadMemoryFiles, type MemoryFile, type MemoryScope } from "./config/memory.js";
// Workspace trust: what a folder's own settings would grant, and recording the user's answer.
export {
  isWorkspaceTrusted,
  type WideningSetting,
  type WorkspaceTrust,
  type WorkspaceTrustStatus,
} from "./config/trust/index.js";
export { inspectWorkspaceTrust, trustWorkspace, untrustWorkspace } from "./config/workspace-trust.js";
export { writeFileAtomicSync } from "./fs/atomic-write.js";
export * from "./hooks/index.js";
export * from "./loop/index.js";
export { query as agentLoop } from "./loop/query.js";
// MCP: client manager, MCP tools, config loading, and serving a pool over MCP; ToolSearch.
export * from "./mcp/index.js";
export * from "./messages/index.js";
// Model windows, output limits, prices and the session's cost ledger.
export * from "./models/index.js";
export * from "./orchestration/index.js";
export * from "./permissions/index.js";
export * from "./providers/index.js";
export { createReplayProvider } from "./providers/replay.js";
export * from "./providers/types.js";
export * from "./results/index.js";
export {
  type FileChangeEntry,
  listFileChanges,
  type UndoAction,
  UndoRefusedError,
  type UndoReport,
  undoLastChanges,
} from "./session/file-history.js";
export { FileTaskStore, restoredTaskListState, sessionTaskStore } from "./session/task-store.js";
export * from "./session/transcript.js";
export * from "./session/transcript-reader.js";
export * from "./shell/index.js";
export * from "./tool/index.js";
export { AskUserQuestionTool } from "./tools/ask-user-question/tool.js";
export { EditTool } from "./tools/edit/tool.js";
export { EnterPlanModeTool } from "./tools/enter-plan-mode/tool.js";
export { ExitPlanModeTool } from "./tools/exit-plan-mode/tool.js";
export { GlobTool } from "./tools/glob/tool.js";
export { GrepTool } from "./tools/grep/tool.js";
export { NotebookEditTool } from "./tools/notebook-edit/tool.js";
// File tools, their file history and undo.
export { ReadTool } from "./tools/read/tool.js";
export { type BuiltInToolsOptions, builtInTools, projectTools } from "./tools/registry.js";
export { TaskCreateTool } from "./tools/task-create/tool.js";
export { TaskGetTool } from "./tools/task-get/tool.js";
export { TaskListTool } from "./tools/task-list/tool.js";
export { TaskUpdateTool } from "./tools/task-update/tool.js";
export { TodoWriteTool } from "./tools/todo-write/tool.js";
export { SEARCH_WEIGHTS, searchTools } from "./tools/tool-search/scoring.js";
export { ToolSearchTool } from "./tools/tool-search/tool.js";
export { WriteTool } from "./tools/write/tool.js";
