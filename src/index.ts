// Warden's public face: what a library user builds an agent from (the Agent SDK's query(), the
// session and loop, the tool contract and the built-in tools, the permission engine, providers,
// MCP, transcripts). Every name is listed here on purpose, no `export *`: the runtime names are
// held by test/library/public-face.test.ts, so adding one is a decision, and internals (the
// executor, result persistence, request building) stay free to change.

// Memory files (AGENTS.md, CLAUDE.md) and workspace trust.
export { loadMemoryFiles, type MemoryFile, type MemoryScope } from "./config/memory.js";
export {
  isWorkspaceTrusted,
  type WideningSetting,
  type WorkspaceTrust,
  type WorkspaceTrustStatus,
} from "./config/trust/index.js";
export { inspectWorkspaceTrust, trustWorkspace, untrustWorkspace } from "./config/workspace-trust.js";
// Hooks configured in settings.
export { HookRunner, hooksFromSettings } from "./hooks/index.js";
// The loop: a session engine over the agent loop, and the loop itself.
export type { CompactBoundaryEvent, QueryEvent, TerminalEvent, TerminalReason } from "./loop/events.js";
export { type QueryParams as AgentLoopParams, query as agentLoop } from "./loop/query.js";
export { createSession, SessionEngine, type SessionEngineOptions } from "./loop/session.js";
export { buildSystemPrompt } from "./loop/system-prompt.js";
// MCP: connect servers and add their tools to a pool, or serve a pool over MCP.
export {
  connectMcpForSession,
  createMcpTool,
  createWardenMcpServer,
  loadMcpServerEntries,
  McpClientManager,
  type McpClientManagerOptions,
  type McpConfigScope,
  type McpServerConfig,
  type McpServerEntry,
  type McpServerState,
  type McpServerStatus,
  type McpSession,
  type McpSessionOptions,
  mcpToolName,
  parseMcpToolName,
  parseServerConfig,
  servableTools,
  serveStreamableHttp,
  type WardenMcpServerOptions,
} from "./mcp/index.js";
// The conversation's data.
export {
  type AssistantContentBlock,
  type AssistantMessage,
  type ContentBlock,
  type ImageBlock,
  type Message,
  type StopReason,
  type TextBlock,
  type ThinkingBlock,
  type ToolResultBlock,
  type ToolResultContent,
  type ToolUseBlock,
  textOf,
  toolUsesOf,
  type Usage,
  type UserContentBlock,
  type UserMessage,
  userText,
} from "./messages/index.js";
// Model windows, output limits, prices and the session's cost ledger.
export {
  costOfUsage,
  type ModelInfo,
  type ModelOverride,
  type ModelUsageEntry,
  modelInfoFor,
  UsageLedger,
} from "./models/index.js";
// The permission engine: build a context from settings and flags, decide calls, settle asks,
// persist "don't ask again", run auto mode; Bash's own check.
export {
  type AskHandler,
  type AskRequest,
  type AskResponse,
  type AutoModeClassifier,
  applyPermissionUpdate,
  applyPermissionUpdates,
  type BuildPermissionContextOptions,
  buildPermissionContext,
  type CheckRequest,
  type ClassifierRequest,
  type ClassifierVerdict,
  type CreateCanUseToolOptions,
  checkBashCommandPermission,
  createCanUseTool,
  createHeadlessAskHandler,
  createModelClassifier,
  createPermissionChecker,
  type DecisionLine,
  DenialTracker,
  denyAskHandler,
  describeReason,
  formatRule,
  hasPermissionsToUseTool,
  isPermissionMode,
  isReadOnlyCommand,
  type LoadedSettings,
  loadSessionPermissions,
  loadSettings,
  type PermissionCliOptions,
  PermissionConfigError,
  type PermissionDecisionRecord,
  type PipelineOutcome,
  parseRule,
  persistPermissionUpdate,
  runPermissionPipeline,
  type SessionPermissions,
  SettingsError,
} from "./permissions/index.js";
// Model providers.
export {
  type AnthropicProviderOptions,
  createAnthropicProvider,
  createOpenAIProvider,
  type OpenAIProviderOptions,
  type ResolvedProvider,
  type ResolveOptions,
  type RetryOptions,
  resolveProvider,
  withRetry,
} from "./providers/index.js";
export { createReplayProvider } from "./providers/replay.js";
export {
  type ModelRequest,
  type Provider,
  ProviderError,
  type ProviderEvent,
  type ToolSchema,
} from "./providers/types.js";
// The Agent SDK's API (query, tool, createSdkMcpServer) in one process. The loop's own query()
// is exported as agentLoop.
export {
  AbortError,
  type CallToolResult,
  type ContextUsageResponse,
  createSdkMcpServer,
  type HookCallback,
  type HookCallbackMatcher,
  type HookJSONOutput,
  type McpSdkServerConfigWithInstance,
  type McpSetServersResult,
  type OnElicitation,
  type Options,
  type Query,
  query,
  type RewindFilesResult,
  type SDKAssistantMessage,
  type SDKMessage,
  type SDKPartialAssistantMessage,
  type SDKPermissionDenial,
  type SDKResultMessage,
  type SDKSystemMessage,
  type SDKUserMessage,
  type SdkAgentDefinition,
  type SdkCanUseTool,
  type SdkElicitationRequest,
  type SdkElicitationResult,
  type SdkMcpServerConfig,
  type SdkMcpToolDefinition,
  type SdkPermissionResult,
  tool,
} from "./sdk/index.js";
// Files a session leaves behind: file history and undo, the Tasks list, the transcript.
export {
  type FileChangeEntry,
  listFileChanges,
  type UndoAction,
  UndoRefusedError,
  type UndoReport,
  undoLastChanges,
} from "./session/file-history.js";
export { FileTaskStore } from "./session/task-store.js";
export { type TranscriptEntry, type TranscriptHeader, TranscriptWriter } from "./session/transcript.js";
export {
  isValidSessionId,
  type LoadedTranscript,
  latestSessionId,
  loadSession,
  loadTranscriptFile,
} from "./session/transcript-reader.js";
// Shell analysis: parse a Bash command and split it into the simple commands bash would run.
export { analyzeCommand, type Finding, type ScriptAnalysis, splitBashCommand } from "./shell/index.js";
// The contract every tool is written against, and the permission vocabulary.
export {
  type AgentDefinition,
  type AnyTool,
  type AppState,
  type AttachmentContext,
  type AttachmentItem,
  type AttachmentSource,
  assembleToolPool,
  buildTool,
  type CanUseTool,
  type CanUseToolOptions,
  createAppStateStore,
  createToolUseContext,
  emptyPermissionContext,
  findToolByName,
  formatZodError,
  PERMISSION_MODES,
  type PermissionBehavior,
  type PermissionDecision,
  type PermissionDecisionReason,
  type PermissionMode,
  type PermissionResult,
  type PermissionRule,
  type PermissionRuleSource,
  type PermissionRuleValue,
  type PermissionUpdate,
  type PermissionUpdateDestination,
  type PlanApproval,
  type PlanApprovalRequest,
  ReadFileState,
  type TaskListStore,
  type TaskRecord,
  type TodoItem,
  type Tool,
  type ToolDef,
  type ToolInput,
  type ToolPermissionContext,
  type ToolPromptOptions,
  type ToolResult,
  type ToolUseContext,
  type ToolUseContextOptions,
  toolInputJSONSchema,
  type UserDialog,
  type UserQuestion,
  type ValidationResult,
  wrapSystemReminder,
} from "./tool/index.js";
// The built-in tools.
export { AskUserQuestionTool } from "./tools/ask-user-question/tool.js";
export { EditTool } from "./tools/edit/tool.js";
export { EnterPlanModeTool } from "./tools/enter-plan-mode/tool.js";
export { ExitPlanModeTool } from "./tools/exit-plan-mode/tool.js";
export { GlobTool } from "./tools/glob/tool.js";
export { GrepTool } from "./tools/grep/tool.js";
export { NotebookEditTool } from "./tools/notebook-edit/tool.js";
export { ReadTool } from "./tools/read/tool.js";
export { type BuiltInToolsOptions, builtInTools, projectTools } from "./tools/registry.js";
export { TaskCreateTool } from "./tools/task-create/tool.js";
export { TaskGetTool } from "./tools/task-get/tool.js";
export { TaskListTool } from "./tools/task-list/tool.js";
export { TaskUpdateTool } from "./tools/task-update/tool.js";
export { TodoWriteTool } from "./tools/todo-write/tool.js";
export { ToolSearchTool } from "./tools/tool-search/tool.js";
export { WriteTool } from "./tools/write/tool.js";

// web-tree-sitter's types (reached through analyzeCommand's) name EmscriptenModule, a global only
// @types/emscripten declares (neither that package nor Warden depends on it), and WebAssembly.Module,
// which the ES libs without DOM lack: a program compiled against Warden's types without
// skipLibCheck failed on them. Declared empty here, they merge with the real declarations in a
// program that has those.
declare global {
  interface EmscriptenModule {}
  namespace WebAssembly {
    interface Module {}
  }
}
