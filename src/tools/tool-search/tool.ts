import * as z from "zod";
import type { ToolResultBlock } from "../../messages/types.js";
import { buildTool } from "../../tool/build-tool.js";
import { isDeferredTool, TOOL_SEARCH_TOOL_NAME, withLoadedDeferredTools } from "../../tool/deferred.js";
import { type LoadedToolDescription, renderLoadedToolLine } from "../../tool/loaded-tools-record.js";
import { findToolByName } from "../../tool/pool.js";
import { prebuiltInputSchema, toolInputJSONSchema } from "../../tool/schema.js";
import type { AnyTool, ToolUseContext } from "../../tool/types.js";
import { TOOL_SEARCH_DESCRIPTION } from "./prompt.js";
import { type SearchableTool, searchTools } from "./scoring.js";

const inputSchema = prebuiltInputSchema(TOOL_SEARCH_TOOL_NAME, () =>
  z.strictObject({
    query: z.string().min(1).describe('"select:A,B", "mcp__server" or keywords'),
    max_results: z.number().int().min(1).max(50).default(5).describe("Keyword matches to return"),
  }),
);

type ToolSearchInput = z.infer<typeof inputSchema>;

/** A tool ToolSearch loaded, as its result shows it to the model. */
export type FoundTool = LoadedToolDescription;

export interface ToolSearchOutput {
  query: string;
  found: FoundTool[];
  /** select: names no deferred tool has. */
  missing: string[];
  /** select: names of tools that are not deferred: their schemas are already sent. */
  alreadyAvailable: string[];
  /** How many deferred tools were searched. */
  searched: number;
}

async function describeTool(tool: AnyTool, context: ToolUseContext): Promise<string> {
  if (tool.staticDescription !== undefined) return tool.staticDescription;
  return tool.prompt({
    tools: context.options.tools,
    permissionContext: context.getAppState().toolPermissionContext,
    cwd: context.options.cwd,
  });
}

export function renderToolSearchResult(output: ToolSearchOutput): string {
  const lines: string[] = [];
  if (output.found.length === 0) {
    lines.push(`No deferred tool matches "${output.query}" (${output.searched} deferred tools searched).`);
  } else {
    const names = output.found.map((t) => t.name).join(", ");
    lines.push(`Loaded ${output.found.length} tool(s): ${names}. Call them from your next turn on.`);
    lines.push("<functions>", ...output.found.map(renderLoadedToolLine), "</functions>");
  }
  if (output.alreadyAvailable.length > 0) {
    lines.push(`Already available, call directly: ${output.alreadyAvailable.join(", ")}.`);
  }
  if (output.missing.length > 0) lines.push(`Not found: ${output.missing.join(", ")}.`);
  return lines.join("\n");
}

/**
 * Finds deferred tools and loads them: the names go into AppState.loadedDeferredTools so the loop
 * sends their schemas from the next request on, and the schemas come back as text right away
 * (our providers are neutral, so there is no server-side tool_reference expansion to lean on).
 */
export const ToolSearchTool = buildTool<ToolSearchInput, ToolSearchOutput>({
  name: TOOL_SEARCH_TOOL_NAME,
  searchHint: "find and load deferred tools",
  inputSchema,
  maxResultSizeChars: 100_000,
  alwaysLoad: true,
  isReadOnly: () => true,
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => "cancel",
  // Searching changes nothing outside the session: asking the user about it would only get in the way.
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  description: async (input) => (input?.query ? `Search deferred tools: ${input.query}` : "Search deferred tools"),
  prompt: async () => TOOL_SEARCH_DESCRIPTION,
  async call(input, context) {
    const deferrable = context.options.tools.filter(isDeferredTool);
    const searchable: SearchableTool[] = await Promise.all(
      deferrable.map(async (tool) => ({
        name: tool.name,
        description: await describeTool(tool, context),
        searchHint: tool.searchHint,
        isMcp: tool.mcpInfo !== undefined,
      })),
    );
    const outcome = searchTools(searchable, input.query, input.max_results);
    const byName = new Map(searchable.map((t, i) => [t.name, { searchable: t, tool: deferrable[i] as AnyTool }]));
    const found: FoundTool[] = [];
    for (const name of outcome.matches) {
      const entry = byName.get(name);
      if (!entry) continue;
      found.push({ name, description: entry.searchable.description, parameters: toolInputJSONSchema(entry.tool) });
    }
    if (found.length > 0) {
      const names = found.map((t) => t.name);
      context.setAppState((state) => withLoadedDeferredTools(state, names));
    }
    const alreadyAvailable: string[] = [];
    const missing: string[] = [];
    for (const name of outcome.missing) {
      const tool = findToolByName(context.options.tools, name);
      (tool ? alreadyAvailable : missing).push(tool ? tool.name : name);
    }
    return { data: { query: input.query, found, missing, alreadyAvailable, searched: deferrable.length } };
  },
  mapToolResult(output: ToolSearchOutput, toolUseId: string): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: renderToolSearchResult(output) };
  },
});
