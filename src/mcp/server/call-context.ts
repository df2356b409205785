// The context one call from an MCP client runs in: the served pool, the client's own store and
// read-before-write memory, a fresh abort controller (tied to the request's signal when it has one).
import type { ReadFileState } from "../../tool/read-file-state.js";
import type { AnyTool, CanUseTool, ToolUseContext } from "../../tool/types.js";

export interface CallContextParts {
  tools: AnyTool[];
  canUseTool: CanUseTool;
  store: Pick<ToolUseContext, "getAppState" | "setAppState" | "channels">;
  readFileState: ReadFileState;
  cwd: string;
  sessionId: string;
  sessionDir: string;
}

export interface PreparedCall {
  context: ToolUseContext;
  canUseTool: CanUseTool;
  toolUseId: string;
}

export type CallContextFactory = (signal?: AbortSignal) => PreparedCall;

export function callContextFactory(parts: CallContextParts): CallContextFactory {
  let count = 0;
  return (signal) => {
    const abortController = new AbortController();
    signal?.addEventListener("abort", () => abortController.abort(signal.reason), { once: true });
    const context: ToolUseContext = {
      options: {
        tools: parts.tools,
        model: "mcp-client",
        cwd: parts.cwd,
        sessionId: parts.sessionId,
        sessionDir: parts.sessionDir,
        isNonInteractive: true,
      },
      abortController,
      messages: [],
      readFileState: parts.readFileState,
      ...parts.store,
    };
    return { context, canUseTool: parts.canUseTool, toolUseId: `mcp_call_${++count}` };
  };
}
