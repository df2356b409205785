// A tool call made from a code-mode program takes the same path as one the model makes directly:
// resolved and parsed by the tool's schema, made absolute, validated, PreToolUse hooks, the
// session's permission authority (deny rules, modes, the ask handler; headless refusals hold),
// the tool, PostToolUse hooks (orchestration's runToolUse), and then the tool's result limit
// (results/). Nothing here calls a tool's implementation itself.
//
// Calls run one at a time, whatever the program awaits together: the REPL call runs alone in its
// turn (not concurrency-safe), and serialising keeps a write and a read it started together from
// racing, as the executor would keep them apart.
import type { AssistantMessage, ToolUseBlock } from "../../messages/types.js";
import { runToolUse } from "../../orchestration/run-tool-use.js";
import { applyToolResultLimit } from "../../results/limit-result.js";
import { persistableText } from "../../results/limits.js";
import type { AnyTool, CanUseTool, ToolUseContext } from "../../tool/types.js";

/** Most calls one program may make: a loop that never ends on tool calls ends here. */
export const MAX_NESTED_CALLS = 200;

export interface NestedCallRunner {
  call(name: string, input: unknown): Promise<string>;
  /** Calls made so far. */
  readonly count: number;
}

/**
 * The calls of one program run. `tools` is the pool the program sees (the session's tools and the
 * MCP tools offered only through code mode); `signal` ends calls when the program is stopped.
 */
export function nestedCallRunner(
  tools: readonly AnyTool[],
  context: ToolUseContext,
  canUseTool: CanUseTool,
  parentMessage: AssistantMessage | undefined,
  signal: AbortSignal,
): NestedCallRunner {
  const parentId = context.toolUseId ?? "repl";
  let count = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const runner: NestedCallRunner = {
    get count() {
      return count;
    },
    call(name, input) {
      count += 1;
      if (count > MAX_NESTED_CALLS) {
        return Promise.reject(new Error(`the program made more than ${MAX_NESTED_CALLS} tool calls`));
      }
      const id = `${parentId}_code_${count}`;
      const next = queue.then(() => runOne({ type: "tool_use", id, name, input: input as Record<string, unknown> }));
      queue = next.catch(() => undefined);
      return next;
    },
  };

  async function runOne(block: ToolUseBlock): Promise<string> {
    if (signal.aborted) throw new Error("the program was stopped before this call ran");
    // Its own abort controller under the REPL call's: stopping the program stops the call.
    const controller = new AbortController();
    const abort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    try {
      const callContext: ToolUseContext = {
        ...context,
        options: { ...context.options, tools: [...tools] },
        abortController: controller,
      };
      const outcome = await runToolUse(block, callContext, canUseTool, parentMessage);
      const result = await applyToolResultLimit(outcome.result, outcome.tool, context.options.sessionDir);
      const text = persistableText(result.content) ?? "[the result holds an image, which code mode cannot show]";
      // A refusal or failure throws inside the program, with the text the model would have read.
      if (result.is_error) throw new Error(text);
      return text;
    } finally {
      signal.removeEventListener("abort", abort);
    }
  }

  return runner;
}
