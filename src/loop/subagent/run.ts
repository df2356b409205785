// One subagent, run in process to its end: the child of ./child.ts runs one query loop; its final
// text is the result. Its messages go to its sidechain transcript. Loaded on the first Agent call.
// SubagentStart hooks run before its first request (their context reaches the subagent) and
// SubagentStop hooks when it would finish (they may send it back to work, as Stop hooks do).
import { queueReminders } from "../../hooks/queue-reminders.js";
import { addUsage, emptyUsage, type Message, userText } from "../../messages/types.js";
import type { SubagentRequest, SubagentResult, ToolUseContext } from "../../tool/types.js";
import type { QueryEvent, TerminalEvent } from "../events.js";
import { MAX_STOP_HOOK_CONTINUATIONS } from "../session-hooks.js";
import { type ChildSetup, childQueryParams, setUpChild } from "./child.js";
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
  const agent = { agentId: request.agentId, agentType: request.definition.agentType };
  const hooks = setup.context.getAppState().hooks;
  const signal = setup.context.abortController.signal;
  const hookErrors = (errors: readonly string[]) => {
    for (const error of errors) transcript?.recordEntry({ type: "hook_error", agentId: request.agentId, error });
  };
  const messages: Message[] = [...setup.messages];
  // An agent is watched as it works: its prompt first, then each event of its loop, then its end.
  // A foreground agent's watchers stream it (headless); a background one is seen by the UI only.
  const parentToolUseId = parent.toolUseId;
  const observer = request.background ? deps.onBackgroundEvent : deps.onForegroundEvent;
  const watch =
    parentToolUseId !== undefined && observer ? (event: QueryEvent) => observer(parentToolUseId, event) : undefined;
  const prompt = request.fork || request.history ? undefined : messages.at(-1);
  if (watch && prompt?.role === "user") watch({ type: "user", message: prompt });
  let run: ChildRun;
  let turns = 0;
  let usage = emptyUsage();
  try {
    if (hooks?.has("SubagentStart")) {
      const start = await hooks.subagentStart(agent, signal);
      hookErrors(start.errors);
      queueReminders(
        setup.context,
        start.additionalContext.map((text) => `SubagentStart hook context: ${text}`),
      );
    }
    for (let round = 0; ; round++) {
      run = await driveOnce(deps, setup, request, messages, watch);
      const terminal = run.terminal as TerminalEvent;
      turns += terminal.turnCount;
      usage = addUsage(usage, terminal.usage);
      if (!hooks?.has("SubagentStop") || terminal.reason !== "completed" || signal.aborted) break;
      if (round >= MAX_STOP_HOOK_CONTINUATIONS) {
        hookErrors([`SubagentStop hooks asked to continue ${round} times in a row; stopping anyway`]);
        break;
      }
      const stop = await hooks.subagentStop(
        { ...agent, lastMessage: run.lastText, ...(transcript && { transcriptPath: setup.transcriptPath }) },
        round > 0,
        signal,
      );
      hookErrors(stop.errors);
      if (stop.continueWith === undefined) break;
      const next = userText(`A SubagentStop hook asked you to continue: ${stop.continueWith}`);
      messages.push(next);
      transcript?.recordMessage(next);
      watch?.({ type: "user", message: next });
    }
  } finally {
    setup.unlink();
    await setup.stopServers();
  }
  // Only a callback that stops the loop leaves no terminal event, and this one never does.
  const terminal = run.terminal as TerminalEvent;
  // The whole run's end (every round), so a watcher closes what it shows of this agent.
  watch?.({ ...terminal, turnCount: turns, usage });
  const result: SubagentResult = {
    agentId: request.agentId,
    text: run.lastText,
    turns,
    usage,
    reason: terminal.reason,
    durationMs: performance.now() - startedAt,
  };
  if (terminal.error !== undefined) result.error = terminal.error;
  if (transcript) result.transcriptPath = setup.transcriptPath;
  transcript?.recordEntry({ type: "agent_result", ...result });
  transcript?.close();
  return result;
}

/** One stretch of the child's loop over `messages`, which grows with what it says and is told. */
function driveOnce(
  deps: SubagentDeps,
  setup: ChildSetup,
  request: SubagentRequest,
  messages: Message[],
  watch: ((event: QueryEvent) => void) | undefined,
): Promise<ChildRun> {
  return driveChildLoop(childQueryParams(deps, setup, request, [...messages]), setup.transcript, (event) => {
    watch?.(event);
    if (event.type === "assistant") request.onMessage?.(event.message);
    if (event.type === "assistant" || event.type === "user") messages.push(event.message);
    else if (event.type === "compact_boundary") messages.splice(0, messages.length, ...event.messages);
    return undefined;
  });
}
