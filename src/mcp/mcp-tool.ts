// One server tool as a Warden tool. The server's JSON Schema is sent to the model unchanged
// (converting it to Zod and back would lose what Zod cannot say); input is checked by the server.
import type { CallToolResult, Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { ToolResultBlock } from "../messages/types.js";
import { buildTool } from "../tool/build-tool.js";
import type { AnyTool, JSONSchema } from "../tool/types.js";
import type { McpCallOptions } from "./connection-types.js";
import { mcpToolName } from "./names.js";
import { type McpContent, mapCallToolResult } from "./result-content.js";

/** Claude Code's cap: some servers ship whole manuals as tool descriptions. */
export const MAX_MCP_DESCRIPTION_CHARS = 2048;

/** What an MCP tool needs from its server connection. */
export interface McpToolHost {
  readonly name: string;
  callTool(toolName: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult>;
}

export interface McpToolOutput {
  content: McpContent;
  isError: boolean;
}

export type McpProgress = { progress: number; total?: number; message?: string };

const anyObject = z.record(z.string(), z.unknown());

function descriptionOf(def: McpToolDefinition): string {
  const text = (def.description ?? def.annotations?.title ?? def.title ?? "").trim();
  return text.length > MAX_MCP_DESCRIPTION_CHARS ? `${text.slice(0, MAX_MCP_DESCRIPTION_CHARS)}… [truncated]` : text;
}

function searchHintOf(def: McpToolDefinition): string | undefined {
  const hint = def._meta?.["anthropic/searchHint"];
  if (typeof hint !== "string") return undefined;
  const collapsed = hint.replace(/\s+/g, " ").trim();
  return collapsed || undefined;
}

export function createMcpTool(host: McpToolHost, def: McpToolDefinition): AnyTool {
  const name = mcpToolName(host.name, def.name);
  const annotations = def.annotations ?? {};
  const readOnly = annotations.readOnlyHint === true;
  const description = descriptionOf(def);
  return buildTool<Record<string, unknown>, McpToolOutput, McpProgress>({
    name,
    mcpInfo: { serverName: host.name, toolName: def.name },
    inputSchema: anyObject,
    inputJSONSchema: def.inputSchema as JSONSchema,
    staticDescription: description,
    searchHint: searchHintOf(def),
    alwaysLoad: def._meta?.["anthropic/alwaysLoad"] === true,
    maxResultSizeChars: 100_000,
    // The server's own hints, which the server vouches for; without them: writing, serial, closed.
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    isDestructive: () => annotations.destructiveHint === true,
    isOpenWorld: () => annotations.openWorldHint === true,
    // Rules `mcp__server` and `mcp__server__tool` decide; the tool itself has no opinion.
    checkPermissions: async () => ({
      behavior: "passthrough",
      message: `The MCP tool ${def.name} of server "${host.name}" needs permission to run.`,
    }),
    userFacingName: () => `${host.name} - ${def.annotations?.title ?? def.title ?? def.name} (MCP)`,
    description: async () => description,
    prompt: async () => description,
    toAutoClassifierInput: (input) => `${name} ${JSON.stringify(input)}`,
    async call(args, context, _canUseTool, _parent, onProgress) {
      const result = await host.callTool(def.name, args, {
        signal: context.abortController.signal,
        onProgress: onProgress
          ? (p) => onProgress({ progress: p.progress, total: p.total, message: p.message })
          : undefined,
      });
      return { data: { content: mapCallToolResult(result), isError: result.isError === true } };
    },
    mapToolResult(output: McpToolOutput, toolUseId: string): ToolResultBlock {
      const block: ToolResultBlock = { type: "tool_result", tool_use_id: toolUseId, content: output.content };
      if (output.isError) block.is_error = true;
      return block;
    },
  });
}
