// What a failed request to an MCP server means for the session: the SDK's errors turned into
// messages that say which server, what happened and what to do, and whether the server itself is
// out of reach (then it is connected afresh on its next use).

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** JSON-RPC errors are answers from a live server (bad params, tool failure); anything else is transport trouble. */
function isJsonRpcErrorCode(code: unknown): boolean {
  return typeof code === "number" && code < 0;
}

/** The server turned us away for want of credentials (HTTP 401, or the SDK's auth gave up). */
export function isUnauthorized(error: unknown, signInWanted: boolean): boolean {
  if (signInWanted) return true;
  const code = (error as { code?: unknown }).code;
  if (code === 401) return true;
  return error instanceof Error && /\bUnauthorized\b|\b401\b/.test(error.message);
}

export interface FailedCall {
  server: string;
  /** The request, as the message names it: "tool NAME", "resources/list", "resource URI". */
  what: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The connection's state as the call failed: "connected", "disconnected", ... */
  state: string;
  /** An HTTP or SSE server (not a stdio child). */
  remote: boolean;
  /** The end of a stdio server's stderr, when it wrote any. */
  stderr(): string | undefined;
}

export interface ExplainedFailure {
  error: Error;
  /**
   * A remote server that went away (refused, reset, its session gone after a restart) does not
   * close our side: set when the connection must count as disconnected, with the reason.
   */
  unreachable?: string;
}

export function explainCallError(error: unknown, call: FailedCall): ExplainedFailure {
  const { server, what, timeoutMs } = call;
  if (call.signal?.aborted) return { error: new Error(`MCP ${what} on "${server}" was cancelled`) };
  const code = (error as { code?: unknown }).code;
  // -32001 RequestTimeout, -32000 ConnectionClosed (the SDK's ErrorCode values).
  if (code === -32001) {
    return {
      error: new Error(`MCP ${what} on server "${server}" did not answer within ${timeoutMs} ms (MCP_TOOL_TIMEOUT)`),
    };
  }
  if (code === -32000 || call.state === "disconnected") {
    const stderr = call.stderr();
    return {
      error: new Error(
        `MCP server "${server}" closed the connection during ${what} (it may have crashed; it will be restarted on the next use)${stderr ? `. Its stderr ended with: ${stderr.slice(-400)}` : ""}`,
      ),
    };
  }
  if (call.remote && !isJsonRpcErrorCode(code) && call.state === "connected") {
    return {
      error: new Error(
        `MCP server "${server}" could not be reached during ${what} (${messageOf(error)}); it will be reconnected on the next use`,
      ),
      unreachable: messageOf(error),
    };
  }
  return { error: new Error(`MCP ${what} on server "${server}" failed: ${messageOf(error)}`) };
}
