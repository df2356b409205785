// The library's query(), tool() and createSdkMcpServer(), as `import { query } from "warden"`
// gives them. query() returns at once, as the Agent SDK's does; the session's code (the stream
// session, the builder, MCP) is loaded on the first use, so importing the library costs nothing.
import type { QueryParams } from "./query.js";
import { CONTROL_METHODS } from "./query-controls.js";
import type { Query, SDKMessage } from "./types.js";

export { AbortError } from "./abort-error.js";
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
  McpSetServersResult,
  OnElicitation,
  Options,
  PermissionResult as SdkPermissionResult,
  Query,
  RewindFilesResult,
  SDKAssistantMessage,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKPermissionDenial,
  SDKResultMessage,
  SDKSystemMessage,
  SDKUserMessage,
  SdkMcpToolDefinition,
} from "./types.js";

export function query(params: QueryParams): Query {
  const started = import("./query.js").then(({ startQuery }) => startQuery(params));
  const use = async <T>(run: (query: Query) => Promise<T>): Promise<T> => run(await started);
  const front = {
    next: () => use((q) => q.next()),
    return: () => use((q) => q.return(undefined)),
    throw: (error: unknown) => use((q) => q.throw(error)),
    [Symbol.asyncIterator]() {
      return this;
    },
  } as Record<string | symbol, unknown>;
  // Each control method is forwarded to the query once its code has loaded.
  for (const name of CONTROL_METHODS) {
    front[name] = (...args: unknown[]) =>
      use((q) => (q[name] as (...given: unknown[]) => Promise<unknown>).apply(q, args));
  }
  return front as unknown as Query & AsyncGenerator<SDKMessage, void>;
}
