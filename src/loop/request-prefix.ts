// The stable head of every model request: the system prompt and the tool schemas. Both are
// rendered once per session and reused, so repeated requests send identical bytes (the prompt
// cache keeps hitting) and the loop does not pay for prompt() and schema conversion every turn.
// The list of deferred tools in the system prompt is the one of the first request, for the whole
// session: deferred tools that come or go later are told as a delta (the deferred_tools_delta
// attachment), so a late MCP server does not rewrite the system prompt under the conversation.
import type { ToolSchema } from "../providers/types.js";
import {
  isDeferredTool,
  loadedDeferredToolNames,
  splitDeferredTools,
  TOOL_SEARCH_TOOL_NAME,
} from "../tool/deferred.js";
import { toolInputJSONSchema } from "../tool/schema.js";
import { resolveToolSearchMode } from "../tool/tool-search-mode.js";
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

function sameTools(a: readonly AnyTool[], b: readonly AnyTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class RequestPrefixCache {
  private readonly schemas = new WeakMap<AnyTool, ToolSchema>();
  private lastKey: string | undefined;
  private lastPrefix: RequestPrefix | undefined;
  /** What the last split was computed from: the same inputs give the same split, skip it. */
  private lastInputs: { pool: readonly AnyTool[]; loaded: unknown; mode: unknown; env: string | undefined } | undefined;

  /** The deferred tools the system prompt lists, fixed at its first rendering. */
  private promptDeferred: readonly AnyTool[] | undefined;
  /** Deferred tools of the pool at the last request, loaded ones included. */
  private availableDeferred: string[] | undefined;

  constructor(private readonly buildSystemPrompt: SystemPromptBuilder) {}

  /** Names of the deferred tools the system prompt lists; undefined before the first request. */
  deferredInSystemPrompt(): readonly string[] | undefined {
    return this.promptDeferred?.map((tool) => tool.name);
  }

  /** Deferred tools in the pool as of the last request (found with ToolSearch or not). */
  deferredAvailable(): readonly string[] | undefined {
    return this.availableDeferred;
  }

  /** The prefix for the context's current pool; rebuilt only when the set of tools changes. */
  async prefixFor(context: ToolUseContext): Promise<RequestPrefix> {
    const pool = context.options.tools;
    const appState = context.getAppState();
    // The loop asks before every request; splitting (auto mode sizes every schema) is only redone
    // when the pool, the loaded deferred tools or the tool-search mode changed.
    // The pool is compared element by element, not by reference: the session updates a running
    // prompt's pool in place when MCP tools change.
    const inputs = {
      pool,
      loaded: appState.loadedDeferredTools,
      mode: appState.toolSearchMode,
      env: process.env.WARDEN_TOOL_SEARCH,
    };
    const last = this.lastInputs;
    if (
      this.lastPrefix &&
      last &&
      sameTools(last.pool, pool) &&
      last.loaded === inputs.loaded &&
      last.mode === inputs.mode &&
      last.env === inputs.env
    ) {
      return this.lastPrefix;
    }
    const loadedNames = loadedDeferredToolNames(appState);
    const split = splitDeferredTools(pool, loadedNames, {
      mode: resolveToolSearchMode(appState.toolSearchMode),
    });
    const deferring = split.deferred.length > 0 || split.loaded.some((t) => t.name === TOOL_SEARCH_TOOL_NAME);
    this.availableDeferred = deferring
      ? [...split.deferred, ...split.loaded.filter((t) => isDeferredTool(t) && loadedNames.has(t.name))].map(
          (t) => t.name,
        )
      : [];
    this.promptDeferred ??= split.deferred;
    // By tool object, not name: an MCP server may redefine a tool under the same name (list_changed).
    // Only the loaded tools count: the deferred list in the system prompt does not change.
    const key = split.loaded.map((t) => this.idOf(t)).join(",");
    if (this.lastPrefix && key === this.lastKey) {
      this.lastInputs = { ...inputs, pool: [...pool] };
      return this.lastPrefix;
    }

    const tools: ToolSchema[] = [];
    for (const tool of split.loaded) tools.push(await this.schemaOf(tool, context));
    const system = await this.buildSystemPrompt({ loaded: split.loaded, deferred: this.promptDeferred });
    this.lastKey = key;
    this.lastPrefix = { system, tools };
    this.lastInputs = { ...inputs, pool: [...pool] };
    return this.lastPrefix;
  }

  private readonly ids = new WeakMap<AnyTool, number>();
  private nextId = 0;

  private idOf(tool: AnyTool): number {
    let id = this.ids.get(tool);
    if (id === undefined) {
      id = ++this.nextId;
      this.ids.set(tool, id);
    }
    return id;
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
