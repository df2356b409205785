// What a subagent is doing, as the transcript shows it under its Agent call: its own tool calls as
// they start and finish (the last few by their summaries, the rest as a count), from the events
// the session passes on for the Agent call (Session.observeSubagents, observeBackgroundSubagents).
// When it ends it folds into one line: how many tool uses, how long.
import type { QueryEvent } from "../../loop/events.js";
import type { ToolUseBlock } from "../../messages/types.js";
import type { AnyTool } from "../../tool/types.js";
import { toolCallSummary } from "./tool-summary.js";

/** How many of a running subagent's calls are shown by name; earlier ones are counted. */
export const SHOWN_SUBAGENT_CALLS = 3;

export interface SubagentCall {
  id: string;
  summary: string;
  state: "running" | "done" | "error";
}

export interface SubagentProgress {
  /** Every call it made, in the order they were seen. */
  calls: SubagentCall[];
  startedAt: number;
  /** Set when its loop ended. */
  endedAt?: number;
  /** Its Agent call ran with run_in_background: the call returned, the agent works on. */
  background: boolean;
  /** The Agent call's own line (`Explore(find the tests)`), for a background agent shown on its own. */
  label?: string;
}

export class SubagentActivity {
  /** Keyed by the id of the Agent call each runs for. */
  readonly byCall = new Map<string, SubagentProgress>();

  constructor(
    private readonly tool: (name: string) => AnyTool | undefined,
    private readonly cwd: string,
  ) {}

  /** One event of the agent's loop; returns true when the agent ended with it. */
  apply(parentToolUseId: string, event: QueryEvent, background: boolean): boolean {
    let progress = this.byCall.get(parentToolUseId);
    if (!progress) {
      if (event.type === "terminal") return false;
      progress = { calls: [], startedAt: Date.now(), background };
      this.byCall.set(parentToolUseId, progress);
    }
    switch (event.type) {
      case "assistant":
        for (const block of event.message.content) if (block.type === "tool_use") this.seen(progress, block);
        return false;
      case "tool_result": {
        // A read-only call may finish before the message holding it is complete.
        const call = this.seen(progress, event.toolUse);
        call.state = event.result.is_error === true ? "error" : "done";
        return false;
      }
      case "terminal":
        progress.endedAt = Date.now();
        for (const call of progress.calls) if (call.state === "running") call.state = "error";
        return true;
      default:
        return false;
    }
  }

  /** The Agent call's line, for a background agent listed apart from its (finished) call. */
  label(parentToolUseId: string, label: string): void {
    const progress = this.byCall.get(parentToolUseId);
    if (progress) progress.label = label;
  }

  /** Background agents still at work. */
  runningInBackground(): Array<[string, SubagentProgress]> {
    return [...this.byCall].filter(([, p]) => p.background && p.endedAt === undefined);
  }

  /** Forgets an agent (its summary has been written). */
  forget(parentToolUseId: string): SubagentProgress | undefined {
    const progress = this.byCall.get(parentToolUseId);
    this.byCall.delete(parentToolUseId);
    return progress;
  }

  clear(): void {
    this.byCall.clear();
  }

  private seen(progress: SubagentProgress, use: ToolUseBlock): SubagentCall {
    const known = progress.calls.find((c) => c.id === use.id);
    if (known) return known;
    const call: SubagentCall = {
      id: use.id,
      summary: toolCallSummary(this.tool(use.name), use, this.cwd),
      state: "running",
    };
    progress.calls.push(call);
    return call;
  }
}

/** The folded line of a finished agent: `Done (3 tool uses · 4s)`. */
export function subagentDoneLine(progress: SubagentProgress, failed: boolean): string {
  const uses = progress.calls.length;
  const seconds = Math.round(((progress.endedAt ?? Date.now()) - progress.startedAt) / 1000);
  return `${failed ? "Stopped" : "Done"} (${uses} tool use${uses === 1 ? "" : "s"} · ${seconds}s)`;
}
