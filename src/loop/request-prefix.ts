// The stable head of every model request: the system prompt and the tool schemas. Both are
// rendered once per session and reused, so repeated requests send identical bytes (the prompt
// cache keeps hitting) and the loop does not pay for prompt() and schema conversion every turn.
import type { ToolSchema } from "../providers/types.js";
import { loadedDeferredToolNames, resolveToolSearchMode, splitDeferredTools } from "../tool/deferred.js";
import { toolInputJSONSchema } from "../tool/schema.js";
import type { AnyTool, ToolUseContext } from "../tool/types.js";

export interface RequestPrefix {
  system: string;
  tools: ToolSchema[];
}

/** What the system prompt builder gets: the tools whose schemas are sent and the deferred ones. */
export interface ToolSplit {
  loaded: readonly AnyTool[];
  deferred: readonly AnyTool[];
}

export type SystemPromptBuilder = (split: ToolSplit) => Promise<string>;

export class RequestPrefixCache {
  private readonly schemas = new WeakMap<AnyTool, ToolSchema>();
  private lastKey: string | undefined;
  private lastPrefix: RequestPrefix | undefined;

  constructor(private readonly buildSystemPrompt: SystemPromptBuilder) {}

  /** The prefix for the context's current pool; rebuilt only when the set of tools changes. */
  async prefixFor(context: ToolUseContext): Promise<RequestPrefix> {
    const pool = context.options.tools;
    const appState = context.getAppState();
    const split = splitDeferredTools(pool, loadedDeferredToolNames(appState), {
      mode: resolveToolSearchMode(appState.toolSearchMode),
    });
    const key = `${split.loaded.map((t) => t.name).join("\n")}\u0000${split.deferred.map((t) => t.name).join("\n")}`;
    if (this.lastPrefix && key === this.lastKey) return this.lastPrefix;

    const tools: ToolSchema[] = [];
    for (const tool of split.loaded) tools.push(await this.schemaOf(tool, context));
    const system = await this.buildSystemPrompt(split);
    this.lastKey = key;
    this.lastPrefix = { system, tools };
    return this.lastPrefix;
  }

  private async schemaOf(tool: AnyTool, context: ToolUseContext): Promise<ToolSchema> {
    const cached = this.schemas.get(tool);
    if (cached) return cached;
    const description = await tool.prompt({
      tools: context.options.tools,
      permissionContext: context.getAppState().toolPermissionContext,
      cwd: context.options.cwd,
    });
    const schema: ToolSchema = { name: tool.name, description, input_schema: toolInputJSONSchema(tool) };
    if (tool.strict) schema.strict = true;
    this.schemas.set(tool, schema);
    return schema;
  }
}
