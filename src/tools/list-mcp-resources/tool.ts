import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import {
  type McpResourceInfo,
  type McpResourceSource,
  validateResourceServer,
} from "../../tool/mcp-resource-source.js";
import type { AnyTool } from "../../tool/types.js";
import { LIST_MCP_RESOURCES_PROMPT } from "./prompt.js";

export const LIST_MCP_RESOURCES_TOOL_NAME = "ListMcpResources";

const inputSchema = z.strictObject({
  server: z.string().optional().describe("Only this server's resources (default: every server)"),
});

export interface ListMcpResourcesOutput {
  resources: McpResourceInfo[];
  /** Servers whose listing failed, with why: the others still answer. */
  failures: Array<{ server: string; error: string }>;
}

export function createListMcpResourcesTool(source: McpResourceSource): AnyTool {
  return buildTool<z.infer<typeof inputSchema>, ListMcpResourcesOutput>({
    name: LIST_MCP_RESOURCES_TOOL_NAME,
    searchHint: "list mcp server resources files documents",
    inputSchema,
    shouldDefer: true,
    isReadOnly: () => true,
    autoModeSafe: true,
    isConcurrencySafe: () => true,
    interruptBehavior: () => "cancel",
    // Listing names of what configured servers offer reveals nothing the user did not set up.
    checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
    description: async (input) => (input?.server ? `List resources of ${input.server}` : "List MCP resources"),
    prompt: async () => LIST_MCP_RESOURCES_PROMPT,
    async validateInput(input) {
      return input.server === undefined ? { result: true } : validateResourceServer(source, input.server);
    },
    async call(input, context) {
      const servers = input.server !== undefined ? [input.server] : source.resourceServers();
      const resources: McpResourceInfo[] = [];
      const failures: ListMcpResourcesOutput["failures"] = [];
      await Promise.all(
        servers.map(async (server) => {
          try {
            resources.push(...(await source.listResources(server, context.abortController.signal)));
          } catch (error) {
            failures.push({ server, error: error instanceof Error ? error.message : String(error) });
          }
        }),
      );
      resources.sort((a, b) => (a.server + a.uri < b.server + b.uri ? -1 : 1));
      return { data: { resources, failures } };
    },
    mapToolResult(output, toolUseId) {
      const lines = output.resources.map((r) => JSON.stringify(r));
      if (lines.length === 0) lines.push("No resources found.");
      for (const f of output.failures) lines.push(`Listing ${f.server} failed: ${f.error}`);
      return { type: "tool_result", tool_use_id: toolUseId, content: lines.join("\n") };
    },
  });
}
