// An error a request handler of `warden mcp serve` throws for the client: the SDK sends its `code`
// and `message` as the JSON-RPC error as they are. Not the SDK's McpError: its message already
// starts with "MCP error CODE: ", and the client's McpError adds that again, so the client read
// "MCP error -32600: MCP error -32600: ...".
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
