// The library's query(), tool() and createSdkMcpServer(), as `import { query } from "warden"`
// gives them. query() returns at once, as the Agent SDK's does; the session's code (the stream
// session, the builder, MCP) is loaded on the first use, so importing the library costs nothing.
import type { QueryParams } from "./query.js";
import type { PermissionMode, Query, SDKMessage } from "./types.js";

export { createSdkMcpServer, tool } from "./sdk-tools.js";
export type {
  AgentDefinition as SdkAgentDefinition,
  CallToolResult,
  CanUseTool as SdkCanUseTool,
  ContextUsageResponse,
  ElicitationRequest as SdkElicitationRequest,
  ElicitationResult as SdkElicitationResult,
  HookCallback,
  HookCallbackMatcher,
  HookJSONOutput,
  McpSdkServerConfigWithInstance,
  McpServerConfig as SdkMcpServerConfig,
  OnElicitation,
  Options,
  PermissionResult as SdkPermissionResult,
  Query,
  RewindFilesResult,
  SDKMessage,
  SDKResultMessage,
  SDKUserMessage,
  SdkMcpToolDefinition,
} from "./types.js";

export function query(params: QueryParams): Query {
  const started = import("./query.js").then(({ startQuery }) => startQuery(params));
  const use = async <T>(run: (query: Query) => Promise<T>): Promise<T> => run(await started);
  return {
    next: () => use((q) => q.next()),
    return: () => use((q) => q.return(undefined)),
    throw: (error: unknown) => use((q) => q.throw(error)),
    [Symbol.asyncIterator]() {
      return this;
    },
    interrupt: () => use((q) => q.interrupt()),
    setPermissionMode: (mode: PermissionMode) => use((q) => q.setPermissionMode(mode)),
    setModel: (model?: string) => use((q) => q.setModel(model)),
    setMaxThinkingTokens: (tokens: number | null) => use((q) => q.setMaxThinkingTokens(tokens)),
    getContextUsage: () => use((q) => q.getContextUsage()),
    rewindFiles: (id: string, options?: { dryRun?: boolean }) => use((q) => q.rewindFiles(id, options)),
    stopTask: (taskId: string) => use((q) => q.stopTask(taskId)),
  } satisfies Query as Query & AsyncGenerator<SDKMessage, void>;
}
