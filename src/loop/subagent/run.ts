// One subagent, run in process to its end: the child of ./child.ts runs one query loop; its final
// text is the result. Its messages go to its sidechain transcript. Loaded on the first Agent call.
import { emptyUsage, textOf } from "../../messages/types.js";
import type { SubagentRequest, SubagentResult, ToolUseContext } from "../../tool/types.js";
import type { TerminalEvent } from "../events.js";
import { query } from "../query.js";
import { childQueryParams, setUpChild } from "./child.js";
import type { SubagentDeps } from "./deps.js";

export { sidechainPath } from "./child.js";

export async function runSubagent(
  deps: SubagentDeps,
  request: SubagentRequest,
  parent: ToolUseContext,
): Promise<SubagentResult> {
  const startedAt = performance.now();
  const setup = await setUpChild(deps, request, parent);
  const { transcript } = setup;
  const loop = query(childQueryParams(deps, setup, request, setup.messages));
  let terminal: TerminalEvent | undefined;
  let lastText = "";
  try {
    while (true) {
      const step = await loop.next();
      if (step.done) {
        terminal = step.value;
        break;
      }
      const event = step.value;
      if (event.type === "assistant") {
        transcript?.recordMessage(event.message);
        const text = textOf(event.message);
        if (text.trim() !== "") lastText = text;
        request.onMessage?.(event.message);
      } else if (event.type === "user") {
        transcript?.recordMessage(event.message);
      }
    }
  } catch (error) {
    terminal = {
      type: "terminal",
      reason: "model_error",
      turnCount: 0,
      usage: emptyUsage(),
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    setup.unlink();
  }
  const result: SubagentResult = {
    agentId: request.agentId,
    text: lastText,
    turns: terminal.turnCount,
    usage: terminal.usage,
    reason: terminal.reason,
    durationMs: performance.now() - startedAt,
  };
  if (terminal.error !== undefined) result.error = terminal.error;
  if (transcript) result.transcriptPath = setup.transcriptPath;
  transcript?.recordEntry({ type: "agent_result", ...result });
  transcript?.close();
  return result;
}
