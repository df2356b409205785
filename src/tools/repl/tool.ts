// REPL (code mode): the model writes a JavaScript program that calls the session's tools as async
// functions, loops and filters, and prints what it wants to keep; only the printed text returns.
// The program runs in QuickJS compiled to wasm (./sandbox.ts: no Node globals, memory and time
// limits); every tool call it makes goes through the same path as a direct call (./nested-calls.ts).
// Offered when settings `codeMode.enabled` or `--code-mode` turn it on (docs/code-mode.md).
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { toolInputJSONSchema } from "../../tool/schema.js";
import type { AnyTool, ToolUseContext } from "../../tool/types.js";
import { jsNamesFor } from "./js-names.js";
import { nestedCallRunner } from "./nested-calls.js";
import { REPL_TOOL_NAME, replPrompt } from "./prompt.js";
import type { SandboxLimits } from "./sandbox.js";

export const REPL_DEFAULT_TIMEOUT_SECONDS = 60;
export const REPL_MAX_TIMEOUT_SECONDS = 300;
export const REPL_LIMITS: Omit<SandboxLimits, "timeoutMs"> = {
  memoryBytes: 64 * 1024 * 1024,
  maxOutputChars: 30_000,
};

const inputSchema = z.lazy(() =>
  z.strictObject({
    code: z.string().min(1).describe("The JavaScript program: top-level await works; print() what you want back"),
    timeout_seconds: z
      .number()
      .positive()
      .max(REPL_MAX_TIMEOUT_SECONDS)
      .optional()
      .describe(`Time limit for the whole program, tool calls included (default ${REPL_DEFAULT_TIMEOUT_SECONDS})`),
  }),
);

export type ReplInput = z.infer<typeof inputSchema>;

export interface ReplOutput {
  output: string;
  returned?: string;
  error?: string;
  truncated: boolean;
  toolCalls: number;
}

export interface ReplToolOptions {
  /**
   * MCP tools offered only through code mode (settings `codeMode.mcpOnly`): not in the session's
   * pool, so their schemas stay out of the request; the program can call them. Read at each call
   * so servers that connect later join.
   */
  codeOnlyTools?: () => readonly AnyTool[];
}

/** The tools a program may call: the session's pool (never REPL itself) and the code-only ones. */
export function programTools(context: Pick<ToolUseContext, "options">, options: ReplToolOptions): AnyTool[] {
  const pool = context.options.tools.filter((tool) => tool.name !== REPL_TOOL_NAME);
  const names = new Set(pool.map((tool) => tool.name));
  const extra = (options.codeOnlyTools?.() ?? []).filter((tool) => !names.has(tool.name));
  return [...pool, ...extra];
}

/**
 * The code-only tools, named compactly: grouped by server (`mcp__github__: create_issue,
 * list_issues`), each by its JavaScript name's tail. Their schemas are not sent: a program reads
 * one with `schemaOf(name)`.
 */
function codeOnlyListing(named: Array<{ jsName: string; name: string }>): string {
  const groups = new Map<string, string[]>();
  for (const { jsName } of named) {
    const match = /^(mcp__[A-Za-z0-9_$]+?__)(.+)$/.exec(jsName);
    const group = match?.[1] ?? "";
    const rest = match?.[2] ?? jsName;
    groups.set(group, [...(groups.get(group) ?? []), rest]);
  }
  return [...groups].map(([group, names]) => `- ${group}${group ? " " : ""}${names.join(", ")}`).join("\n");
}

export function createReplTool(options: ReplToolOptions = {}) {
  return buildTool<ReplInput, ReplOutput>({
    name: REPL_TOOL_NAME,
    searchHint: "code mode javascript program batch tool calls",
    maxResultSizeChars: 40_000,
    inputSchema,
    async prompt({ tools }) {
      const codeOnly = options.codeOnlyTools?.() ?? [];
      const all = programTools(
        { options: { tools: [...tools] } as ToolUseContext["options"] } as ToolUseContext,
        options,
      );
      const named = jsNamesFor(all);
      const codeOnlyNames = new Set(codeOnly.map((tool) => tool.name));
      const direct = named.filter(({ name }) => !codeOnlyNames.has(name)).map(({ jsName }) => jsName);
      const onlyHere = codeOnlyListing(named.filter(({ name }) => codeOnlyNames.has(name)));
      return replPrompt(direct.join(", "), onlyHere, codeOnly.length);
    },
    description: async () => "Run a JavaScript program that calls tools",
    interruptBehavior: () => "cancel",
    // The program itself touches nothing: each call it makes is decided on its own when it is made.
    checkPermissions: async () => ({
      behavior: "allow",
      decisionReason: { type: "tool", reason: "each tool call the program makes is decided on its own" },
    }),
    toAutoClassifierInput: (input) => input.code,

    async call(input, context, canUseTool, parentMessage) {
      const { runInSandbox } = await import("./sandbox.js");
      const tools = programTools(context, options);
      // Stopping the program (time limit, Ctrl+C) stops the call it is waiting on too.
      const stop = new AbortController();
      const parentSignal = context.abortController.signal;
      const onParentAbort = () => stop.abort(parentSignal.reason);
      parentSignal.addEventListener("abort", onParentAbort, { once: true });
      const runner = nestedCallRunner(tools, context, canUseTool, parentMessage, stop.signal);
      const timeoutMs = (input.timeout_seconds ?? REPL_DEFAULT_TIMEOUT_SECONDS) * 1000;
      try {
        const codeOnly = new Set((options.codeOnlyTools?.() ?? []).map((tool) => tool.name));
        const named = jsNamesFor(tools).map((entry, index) => {
          const tool = tools[index] as AnyTool;
          const schema = codeOnly.has(tool.name) ? toolInputJSONSchema(tool) : undefined;
          return schema ? { ...entry, schema } : entry;
        });
        const run = await runInSandbox(
          input.code,
          named,
          (name, toolInput) => runner.call(name, toolInput),
          { ...REPL_LIMITS, timeoutMs },
          stop.signal,
        );
        return { data: { ...run, toolCalls: runner.count } };
      } finally {
        stop.abort();
        parentSignal.removeEventListener("abort", onParentAbort);
      }
    },

    mapToolResult(output, toolUseId) {
      const parts: string[] = [];
      if (output.output) parts.push(output.output.trimEnd());
      if (output.truncated) parts.push(`[output cut at ${REPL_LIMITS.maxOutputChars} characters]`);
      if (output.returned !== undefined) parts.push(`Returned: ${output.returned}`);
      if (output.error) parts.push(`Error: ${output.error}`);
      if (parts.length === 0) parts.push("(the program printed nothing)");
      return {
        type: "tool_result",
        tool_use_id: toolUseId,
        content: parts.join("\n"),
        ...(output.error ? { is_error: true } : {}),
      };
    },
  });
}

/** The REPL tool with no code-only tools (the session builds its own when MCP tools go code-only). */
export const ReplTool = createReplTool();
