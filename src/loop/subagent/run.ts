// One subagent, run in process to its end: the child of ./child.ts runs one query loop; its final
// text is the result. Its messages go to its sidechain transcript. Loaded on the first Agent call.
import type { SubagentRequest, SubagentResult, ToolUseContext } from "../../tool/types.js";
import type { TerminalEvent } from "../events.js";
import { childQueryParams, setUpChild } from "./child.js";
import type { SubagentDeps } from "./deps.js";
import { type ChildRun, driveChildLoop } from "./drive.js";

export { sidechainPath } from "./child.js";

export async function runSubagent(
  deps: SubagentDeps,
  request: SubagentRequest,
  parent: ToolUseContext,
): Promise<SubagentResult> {
  const startedAt = performance.now();
  const setup = await setUpChild(deps, request, parent);
  const { transcript } = setup;
  let run: ChildRun;
  try {
    run = await driveChildLoop(childQueryParams(deps, setup, request, setup.messages), transcript, (event) => {
      if (event.type === "assistant") request.onMessage?.(event.message);
      return undefined;
    });
  } finally {
    setup.unlink();
  }
  // Only a callback that stops the loop leaves no terminal event, and this one never does.
  const terminal = run.terminal as TerminalEvent;
  const result: SubagentResult = {
    agentId: request.agentId,
    text: run.lastText,
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
