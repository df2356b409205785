// prompts/list and prompts/get of `warden mcp serve`, wired to the SDK's server (see prompts.ts).
// An unknown prompt or an unreadable file goes back to the client as a JSON-RPC error with the
// reason; nothing here can stop the server.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type * as McpTypes from "@modelcontextprotocol/sdk/types.js";
import { getPrompt, listPrompts, loadPromptCatalog, UnknownPromptError } from "./prompts.js";
import { RpcError } from "./rpc-error.js";

export function registerPromptHandlers(server: Server, types: typeof McpTypes, cwd: string): void {
  server.setRequestHandler(types.ListPromptsRequestSchema, async () => ({
    prompts: listPrompts(await loadPromptCatalog(cwd)),
  }));
  server.setRequestHandler(types.GetPromptRequestSchema, async (request) => {
    try {
      return await getPrompt(await loadPromptCatalog(cwd), request.params.name, request.params.arguments);
    } catch (error) {
      const code = error instanceof UnknownPromptError ? types.ErrorCode.InvalidParams : types.ErrorCode.InternalError;
      throw new RpcError(code, (error as Error).message);
    }
  });
}
