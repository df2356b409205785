// Warden's built-in tools served over MCP to any client. Each call goes the same way as in a
// session (schema check, validateInput, the permission engine, call, one result), so a client gets
// exactly the authority a headless session would: what would ask is denied, with the reason.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResultBlock } from "../../messages/types.js";
import { runToolUse } from "../../orchestration/run-tool-use.js";
import { applyToolResultLimit } from "../../results/limit-result.js";
import type { AppState } from "../../tool/app-state.js";
import { createAppStateStore } from "../../tool/context.js";
import { TOOL_SEARCH_TOOL_NAME } from "../../tool/deferred.js";
import { findToolByName } from "../../tool/pool.js";
import { ReadFileState } from "../../tool/read-file-state.js";
import { toolInputJSONSchema, toolOutputJSONSchema } from "../../tool/schema.js";
import type { AnyTool, CanUseTool } from "../../tool/types.js";
import { callContextFactory } from "./call-context.js";
import { startCallProgress } from "./call-progress.js";
import { registerPromptHandlers } from "./prompt-handlers.js";
import { registerResourceHandlers } from "./resource-handlers.js";

export interface WardenMcpServerOptions {
  /** The pool to serve (already filtered by deny rules). */
  tools: readonly AnyTool[];
  canUseTool: CanUseTool;
  appState: AppState;
  cwd: string;
  sessionId: string;
  sessionDir: string;
  version: string;
}

/**
 * What MCP clients are offered: everything but ToolSearch (nothing is deferred over MCP: the
 * client has its own way with tool lists) and tools that must talk to a human here.
 */
export function servableTools(tools: readonly AnyTool[]): AnyTool[] {
  return tools.filter((t) => t.isEnabled() && t.name !== TOOL_SEARCH_TOOL_NAME && !t.requiresUserInteraction());
}

/** A trait that depends on the input is asked with an empty one; a tool that throws on it says no. */
function traitWithoutInput(probe: () => boolean): boolean {
  try {
    return probe() === true;
  } catch {
    return false;
  }
}

export async function describeForMcp(tool: AnyTool, options: WardenMcpServerOptions): Promise<McpToolDefinition> {
  const description = await tool.prompt({
    tools: options.tools,
    permissionContext: options.appState.toolPermissionContext,
    cwd: options.cwd,
  });
  const readOnly = traitWithoutInput(() => tool.isReadOnly({}));
  const outputSchema = toolOutputJSONSchema(tool);
  return {
    name: tool.name,
    description,
    inputSchema: toolInputJSONSchema(tool) as McpToolDefinition["inputSchema"],
    ...(outputSchema && { outputSchema: outputSchema as McpToolDefinition["outputSchema"] }),
    annotations: {
      readOnlyHint: readOnly,
      // Fail closed for clients that auto-approve "non-destructive" tools: anything that may write is destructive.
      destructiveHint: !readOnly || traitWithoutInput(() => tool.isDestructive({})),
      openWorldHint: traitWithoutInput(() => tool.isOpenWorld({})),
    },
  };
}

export function toMcpResult(block: ToolResultBlock): CallToolResult {
  const content: CallToolResult["content"] =
    typeof block.content === "string"
      ? [{ type: "text", text: block.content }]
      : block.content.map((b) =>
          b.type === "text"
            ? { type: "text" as const, text: b.text }
            : { type: "image" as const, data: b.source.data, mimeType: b.source.media_type },
        );
  return block.is_error ? { content, isError: true } : { content };
}

/**
 * A tool that declares an output schema gives its data as structuredContent on success, checked
 * against that schema first: a client validates it, and a mismatch must not turn a good call bad.
 */
function structuredContentOf(
  tool: AnyTool | undefined,
  output: unknown,
  result: CallToolResult,
): Record<string, unknown> | undefined {
  if (!tool?.outputSchema || result.isError || output === undefined) return undefined;
  const parsed = tool.outputSchema.safeParse(output);
  return parsed.success ? (parsed.data as Record<string, unknown>) : undefined;
}

export async function createWardenMcpServer(options: WardenMcpServerOptions): Promise<Server> {
  const [{ Server }, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const tools = servableTools(options.tools);
  const definitions = await Promise.all(tools.map((t) => describeForMcp(t, options)));
  // One store and one read-memory per client: read-before-write holds across its calls.
  const makeCall = callContextFactory({
    tools,
    canUseTool: options.canUseTool,
    store: createAppStateStore(options.appState),
    readFileState: new ReadFileState(),
    cwd: options.cwd,
    sessionId: options.sessionId,
    sessionDir: options.sessionDir,
  });

  const server = new Server(
    { name: "warden", version: options.version },
    {
      capabilities: {
        tools: {},
        logging: {},
        resources: { subscribe: true },
        completions: {},
        prompts: {},
      },
    },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: definitions }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (!findToolByName(tools, name)) {
      return { content: [{ type: "text", text: `No such tool: ${name}` }], isError: true };
    }
    const { context, toolUseId } = makeCall(extra.signal);
    const progress = startCallProgress({
      server,
      toolName: name,
      progressToken: request.params._meta?.progressToken,
      sendNotification: (notification) => extra.sendNotification(notification),
      sessionId: extra.sessionId,
    });
    const block = { type: "tool_use" as const, id: toolUseId, name, input: request.params.arguments ?? {} };
    const outcome = await runToolUse(block, context, options.canUseTool, undefined, (p) => progress.onToolProgress(p));
    // The same size limit as in a session: an oversized result is saved to a file and the client
    // gets a preview with its path, not megabytes it must hold in its own context.
    const limited = await applyToolResultLimit(outcome.result, outcome.tool, options.sessionDir);
    const result = toMcpResult(limited);
    const structured =
      limited === outcome.result ? structuredContentOf(outcome.tool, outcome.output, result) : undefined;
    if (structured) result.structuredContent = structured;
    progress.finish({ isError: result.isError === true });
    return result;
  });
  registerResourceHandlers(server, types, { tools, makeCall, options });
  registerPromptHandlers(server, types, options.cwd);
  return server;
}
